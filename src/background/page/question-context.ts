/**
 * The page as a question sends it: whole when it fits the budget; otherwise its outline and the
 * sections that best match the question (rank.ts), in page order, each under its heading, with
 * how much of the page that is. A summary of a page that does not fit is made part by part
 * (`summaryParts`), so that it covers the whole page. Nothing here tells the model to call a
 * tool: the question path has none.
 */
import type { PageCoverage, PageFocus } from '../../shared/conversation';
import { snapshotFacts, type PageSnapshot } from '../../shared/page-snapshot';
import { sectionsFrom, selectSections } from './rank';
import { labelOf, outlineOf, sentSize, splitSections, type Section } from './sections';

export interface QuestionPage {
  body: string;
  /** Set when the page did not fit whole. */
  coverage?: PageCoverage;
}

/** Headings offered for "pick a section", at most. */
const MAX_OUTLINE_ENTRIES = 200;

/** Page text per token, roughly, in the languages pages are written in. */
const CHARS_PER_TOKEN = 3.5;
/** Tokens kept for the system prompt and the answer. */
const RESERVED_TOKENS = 1_500;
/** Page text sent with a question, at most: more makes small local models slow for little gain. */
const MAX_PAGE_TOKENS = 6_000;
const MIN_PAGE_CHARS = 1_500;

/**
 * Characters of page text a question may send: what the model's context window leaves after the
 * prompt, the answer and the conversation so far (`usedChars`), within a cap.
 */
export function pageBudgetChars(contextTokens: number, usedChars: number): number {
  const tokens = Math.min(MAX_PAGE_TOKENS, Math.floor(contextTokens * 0.75) - RESERVED_TOKENS - Math.ceil(usedChars / CHARS_PER_TOKEN));
  return Math.max(MIN_PAGE_CHARS, Math.floor(tokens * CHARS_PER_TOKEN));
}

/** Most a summary is made of: past this many parts, each part keeps only its sections' openings. */
export const MAX_SUMMARY_PARTS = 8;

/**
 * The page for a question within `budgetChars` of text. With a focus, the sections from there
 * on in page order ("Read on", "Pick a section") instead of the best matches.
 */
export function pageForQuestion(snapshot: PageSnapshot, question: string, budgetChars: number, focus?: PageFocus): QuestionPage {
  const facts = snapshotFacts(snapshot);
  const totalChars = Math.max(snapshot.truncated.totalTextChars, snapshot.text.length);
  if (snapshot.text.length <= budgetChars && !focus) {
    const whole = [...facts, ...(facts.length ? [''] : []), snapshot.text || '(No readable text.)'].join('\n');
    return { body: whole, ...(snapshot.text.length < totalChars ? { coverage: { url: snapshot.url, sentChars: snapshot.text.length, totalChars, outline: [] } } : {}) };
  }
  const sections = splitSections(snapshot.text);
  const outline = outlineOf(sections);
  const budget = Math.max(500, budgetChars - outline.length);
  const start = focus ? startOf(sections, focus) : undefined;
  const selection = start !== undefined ? sectionsFrom(sections, start, budget) : selectSections(sections, question, budget);
  const share = Math.max(1, Math.floor((100 * selection.chars) / totalChars));
  const from = selection.sections[0];
  const intro =
    start !== undefined && from
      ? `The page is too long to send whole. Below is the part from “${labelOf(from)}” on (about ${share}% of the page's text), in page order, each section under its heading.`
      : selection.matched
        ? `The page is too long to send whole. Below are the parts that best match the question (about ${share}% of the page's text), in page order, each under its heading. If the answer is not in them, say which part of the outline it may be in.`
        : `The page is too long to send whole. Below is its beginning (about ${share}% of the page's text). If the answer is not in it, say which part of the outline it may be in.`;
  const body = [...facts, ...(outline ? ['Outline of the page:', outline, ''] : []), intro, '', renderSections(selection.sections)].join('\n');
  const sent = new Set(selection.sections.map((s) => s.index));
  const next = sections.findIndex((s) => !sent.has(s.index) && (start === undefined || s.index > start));
  const coverage: PageCoverage = { url: snapshot.url, sentChars: selection.chars, totalChars, ...(next >= 0 ? { nextSection: next } : {}), outline: headingsOf(sections) };
  return { body, coverage };
}

/** Where a focus starts: the section after `from`, or the first under the heading named. */
function startOf(sections: readonly Section[], focus: PageFocus): number | undefined {
  if (focus.heading !== undefined) {
    const index = sections.findIndex((s) => s.headings.join(' › ') === focus.heading);
    if (index >= 0) return index;
  }
  if (focus.from !== undefined) return Math.min(focus.from, Math.max(0, sections.length - 1));
  return undefined;
}

/**
 * The page in parts for a summary, each within `budgetChars`, together covering the whole page:
 * consecutive sections grouped in page order. When that makes more than
 * {@link MAX_SUMMARY_PARTS} parts, the sections are split evenly into that many parts and each
 * is shortened to its opening, so that the parts still span the page.
 */
export function summaryParts(snapshot: PageSnapshot, budgetChars: number): string[] {
  const sections = splitSections(snapshot.text);
  const grouped: Section[][] = [[]];
  let used = 0;
  for (const section of sections) {
    if (used + sentSize(section) > budgetChars && grouped.at(-1)!.length) {
      grouped.push([]);
      used = 0;
    }
    grouped.at(-1)!.push(section);
    used += sentSize(section);
  }
  if (grouped.length <= MAX_SUMMARY_PARTS) return grouped.filter((g) => g.length).map(renderSections);

  const perPart = Math.ceil(sections.length / MAX_SUMMARY_PARTS);
  // Room for each section's opening once the labels and gaps of its part are counted.
  const share = Math.floor(budgetChars / perPart) - 100;
  const parts: string[] = [];
  for (let start = 0; start < sections.length; start += perPart) {
    const shortened = sections.slice(start, start + perPart).map((s) => ({
      ...s,
      headings: s.headings.map((h) => (h.length > 40 ? `${h.slice(0, 39)}…` : h)).slice(-2),
      text: s.text.length <= share ? s.text : `${s.text.slice(0, Math.max(0, share)).trimEnd()} […]`,
    }));
    parts.push(renderSections(shortened));
  }
  return parts;
}

/** Sections under their headings; a gap between two sections that are not neighbours is marked. */
function renderSections(sections: readonly Section[]): string {
  const blocks: string[] = [];
  let previous: number | undefined;
  for (const section of sections) {
    if (previous !== undefined && section.index !== previous + 1) blocks.push('[…]');
    blocks.push(`## ${labelOf(section)}\n${section.text}`);
    previous = section.index;
  }
  return blocks.join('\n\n');
}

/** Each heading path once, in page order. */
function headingsOf(sections: readonly Section[]): string[] {
  const seen = new Set<string>();
  for (const section of sections) {
    if (seen.size >= MAX_OUTLINE_ENTRIES) break;
    if (section.headings.length) seen.add(section.headings.join(' › '));
  }
  return [...seen];
}
