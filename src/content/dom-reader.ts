/**
 * The page reader: `readPage(document, options)` gives a compact snapshot of what a person sees —
 * readable text, product data, and the interactive elements with ids actions can address. Pure
 * DOM code: it runs in the page agent and under jsdom.
 */
import { isProbablyReaderable, Readability } from '@mozilla/readability';
import { MAX_FRAMES_LISTED, snapshotFacts, type PageSnapshot } from '../shared/page-snapshot';
import { describeElement, indexInteractive } from './reader/interactive';
import { renderMarkdown } from './reader/markdown';
import { readProduct } from './reader/product';
import { listFrames } from './reader/walk';

export interface ReadOptions {
  /** Budget for the whole snapshot, in tokens (≈ 4 characters each). Default 3000. */
  maxTokens?: number;
  includeInteractive?: boolean;
  /** Continue the text from this character offset. */
  offset?: number;
  /** A CSS selector: read only this part of the page. */
  region?: string;
  /**
   * Keeps the live elements of the snapshot (in id order) and returns the snapshot's nonce: the
   * page agent's private registry. Without it the snapshot has no nonce and its ids address nothing.
   */
  register?: (elements: Element[]) => string;
}

/** Pages bigger than this skip the article extractor: cloning them costs more than it gives. */
const READABILITY_MAX_ELEMENTS = 15_000;
/** Frames from other sites listed by URL at most; the rest are counted. */

function metaContent(doc: Document, ...names: string[]): string | undefined {
  for (const name of names) {
    const v = doc.querySelector(`meta[name="${name}"], meta[property="${name}"]`)?.getAttribute('content')?.trim();
    if (v) return v;
  }
  return undefined;
}

interface MainText {
  text: string;
  title?: string;
  source: PageSnapshot['source'];
  frames: PageSnapshot['frames'];
}

/** The article when the page has one; otherwise (apps, search results, forms) the visible text. */
function mainText(doc: Document, region: Element | undefined): MainText {
  if (region) {
    const { text, frames } = renderMarkdown(region);
    return { text, source: 'region', frames };
  }
  const walked = () => renderMarkdown(doc.body ?? doc.documentElement);
  const small = doc.getElementsByTagName('*').length <= READABILITY_MAX_ELEMENTS;
  if (small && doc.body && isProbablyReaderable(doc, { minContentLength: 140, minScore: 20 })) {
    try {
      const article = new Readability(doc.cloneNode(true) as Document).parse();
      if (article?.content && (article.textContent ?? '').trim().length > 200) {
        // The article HTML goes into an inert document: nothing in it runs or loads.
        const Parser = doc.defaultView?.DOMParser ?? DOMParser;
        const inert = new Parser().parseFromString(article.content, 'text/html');
        const { text } = renderMarkdown(inert.body, { includeFrames: false });
        // Open shadow roots and frames are outside the article extractor's view; keep the frame list.
        const frames = listFrames(doc.body);
        return { text, title: article.title ?? undefined, source: 'readability', frames };
      }
    } catch {
      /* fall back to the visible text */
    }
  }
  const { text, frames } = walked();
  return { text, source: 'visible-text', frames };
}

export function readPage(doc: Document, options: ReadOptions = {}): PageSnapshot {
  const budget = Math.max(200, (options.maxTokens ?? 3000) * 4);
  const includeInteractive = options.includeInteractive ?? true;
  const region = options.region ? safeQuery(doc, options.region) : undefined;
  const main = options.region && !region ? { text: `(Nothing on the page matches the region "${options.region}".)`, source: 'region' as const, frames: [] } : mainText(doc, region);

  const elementBudget = includeInteractive ? Math.max(600, Math.floor(budget * 0.4)) : 0;
  const { elements, nodes, total, chars: elementChars } = includeInteractive
    ? indexInteractive(region ?? doc.body ?? doc.documentElement, { maxChars: elementBudget })
    : { elements: [], nodes: [], total: 0, chars: 0 };
  const nonce = includeInteractive && options.register ? options.register(nodes) : undefined;

  // The header (title, URL, product, frames) and the notes about cuts take their share too.
  const frames = main.frames.filter((f) => !f.sameOrigin);
  const headerChars = 400 + frames.slice(0, MAX_FRAMES_LISTED).reduce((n, f) => n + Math.min(f.src.length, 100) + 2, 0);
  const textBudget = Math.max(200, budget - elementChars - headerChars);
  const offset = Math.min(Math.max(0, options.offset ?? 0), main.text.length);
  const rest = main.text.slice(offset);
  let text = rest;
  let nextOffset: number | undefined;
  if (rest.length > textBudget) {
    // Cut at a paragraph or line break near the budget, so no sentence is split mid-word.
    const window = rest.slice(0, textBudget);
    const cut = Math.max(window.lastIndexOf('\n\n'), window.lastIndexOf('\n'), window.lastIndexOf('. ') + 1);
    const end = cut > textBudget * 0.6 ? cut : textBudget;
    text = rest.slice(0, end).trimEnd();
    nextOffset = offset + end;
  }

  const title = (main.title || doc.title || metaContent(doc, 'og:title') || '').replace(/\s+/g, ' ').trim();
  return {
    url: doc.location?.href ?? doc.URL,
    title,
    lang: doc.documentElement.getAttribute('lang') || undefined,
    description: metaContent(doc, 'description', 'og:description'),
    siteName: metaContent(doc, 'og:site_name', 'application-name'),
    text,
    product: readProduct(doc),
    elements,
    frames,
    truncated: { text: nextOffset !== undefined || offset > 0, elements: elements.length < total, nextOffset, totalTextChars: main.text.length, totalElements: total },
    source: main.source,
    ...(nonce ? { nonce } : {}),
  };
}

function safeQuery(doc: Document, selector: string): Element | undefined {
  try {
    return doc.querySelector(selector) ?? undefined;
  } catch {
    return undefined;
  }
}

/** The snapshot as the model reads it: header (title and URL unless `header` is false), text, then one element per line. */
export function renderSnapshotForPrompt(s: PageSnapshot, { header = true } = {}): string {
  const lines = [...(header ? [`# ${s.title || '(untitled page)'}`, `URL: ${s.url}`] : []), ...snapshotFacts(s)];
  lines.push('', s.text || '(No readable text.)');
  if (s.truncated.nextOffset !== undefined) {
    lines.push(`\n[Text cut at character ${s.truncated.nextOffset} of ${s.truncated.totalTextChars}. Call read_page with offset=${s.truncated.nextOffset} for the next part, or region=<CSS selector> for one part.]`);
  }
  if (s.elements.length) {
    lines.push('', 'Interactive elements:', ...s.elements.map(describeElement));
    if (s.truncated.elements) lines.push(`[Showing ${s.elements.length} of ${s.truncated.totalElements} elements, those in view first. Scroll, or read a region, to see others.]`);
  }
  return lines.join('\n');
}
