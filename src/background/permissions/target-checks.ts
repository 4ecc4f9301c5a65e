/**
 * What the engine makes of the element a call acts on: the element in words for the question,
 * whether it is destructive, and whether the page's text points the agent to it.
 *
 * "Points to" looks for instruction-like references only, because every button's label is also
 * in the page's visible text and in the element list the model reads. A reference counts when
 * the element's accessible name appears in the untrusted text the model saw
 *   - right after an imperative verb (click, tap, press, select, choose, …), with at most four
 *     words between them on the same line (`click on the "Claim prize" button`), or
 *   - in quotes, in a sentence that has such a verb or on a line addressed to the assistant
 *     (AI, assistant, agent, bot, model, "instructions", "you must", "ignore previous"…);
 * and the user's own words do not contain that name. The element list's own lines
 * (`[12] button "Claim prize"` at the start of a line) are not references.
 */
import { say, type Localized } from '../../shared/i18n';
import { elementKind } from '../element-words';
import { INVISIBLE_CHARS } from '../../shared/invisible';
import type { TargetInfo } from './tiers';

/**
 * Page-written text as it may appear inside the question's quotes: no quote marks to end them
 * early, no line breaks, and no invisible or bidirectional controls that would reorder what the
 * user reads; then clipped.
 */
const INVISIBLE = new RegExp(`[${INVISIBLE_CHARS}]`, 'g');

export const clip = (s: string, n = 60) => {
  const plain = s
    .replace(/\s+/g, ' ')
    .replace(INVISIBLE, '')
    .replace(/[“”"„‟«»]/g, "'")
    .trim();
  return plain.length > n ? `${plain.slice(0, n - 1)}…` : plain;
};

/**
 * `button “Delete account” in form “Close your account”`: the element a question is about, as a
 * message the sidebar words in the user's language. The names in it are the page's, clipped.
 */
export function targetText(target: TargetInfo): Localized {
  // The role attribute is page-written too: only a plain word of it is shown.
  const what = (target.role && target.role !== 'generic' ? target.role : target.tag).replace(/[^a-z-]/gi, '').slice(0, 20) || 'element';
  const role = elementKind(what);
  const element = target.name ? say('targetNamed', role, clip(target.name)) : say('targetUnnamed', role);
  const via = target.formVia ?? (target.formName ? 'ancestor' : undefined);
  if (!via) return element;
  const form = target.formName ? clip(target.formName) : undefined;
  if (via === 'script') return form ? say('targetMaySendForm', element, form) : say('targetMaySendAForm', element);
  if (via === 'attribute') return form ? say('targetForForm', element, form) : say('targetForAForm', element);
  return form ? say('targetInForm', element, form) : say('targetInAForm', element);
}

const DESTRUCTIVE: RegExp[] = [
  /\b(delete|deleting|remove|removing|erase|destroy|wipe|deactivate|terminate|discard)\b/,
  /\b(pay|paying|buy|purchase|checkout|check out|transfer|unsubscribe|confirm)\b/,
  /\b(place|submit|confirm) (your |my |the |this )?order\b|\border now\b/,
  /\bsend (money|payment|funds)\b/,
  /\bcancel (my |your |the |this )?(order|subscription|membership|plan|account|booking|reservation|payment)s?\b/,
  /\bclose (my |your |the |this )?account\b/,
];

/** The word that makes acting on this element look destructive (in its name or its form's), if any. */
export function destructiveWord(target: TargetInfo): string | undefined {
  for (const label of [target.name, target.formName]) {
    const text = normalise(label ?? '');
    for (const pattern of DESTRUCTIVE) {
      const found = text.match(pattern);
      if (found) return found[0];
    }
  }
  return undefined;
}

const VERBS = 'click|tap|press|push|hit|select|choose|pick|activate|submit|follow|open|toggle|check|tick';
const QUOTES = `"'“”‘’«»\``;
/** A verb, then up to four words on the same line, then (perhaps) an opening quote, right before the name. */
const VERB_BEFORE = new RegExp(`\\b(${VERBS})\\b(?:[ \\t]+[^\\s.!?]+){0,4}?[ \\t]*[${QUOTES}]?[ \\t]*$`);
const VERB_ANYWHERE = new RegExp(`\\b(${VERBS})\\b`);
const ADDRESSED = /\b(ai|a\.i\.|assistants?|agents?|bots?|llms?|language models?|models?|chatgpt|gpt|claude|copilot|instructions?)\b|\byou (must|should|need to|have to|are (required|authori[sz]ed))\b|\bignore (all |any )?(previous|prior|earlier)\b/;
const LISTING_LINE = /^[ \t]*\[\d+\] [a-z]+ "(?:[^"\\]|\\.)*"/gm;

function normalise(text: string): string {
  return text.toLowerCase().replace(/[ \t\u00a0]+/g, ' ').trim();
}

/** Whether the untrusted page text points the agent to this element and the user did not name it. */
export function pageSteered(target: TargetInfo, pageText: string, userText: string): boolean {
  const name = normalise(target.name ?? '');
  if (name.length < 2) return false;
  if (normalise(userText).includes(name)) return false;
  const text = pageText.replace(LISTING_LINE, '').toLowerCase().replace(/[ \t\u00a0]+/g, ' ');
  for (let at = text.indexOf(name); at !== -1; at = text.indexOf(name, at + 1)) {
    const before = text.slice(Math.max(0, at - 80), at);
    if (VERB_BEFORE.test(before)) return true;
    const quoted = QUOTES.includes(before.trimEnd().slice(-1)) && QUOTES.includes(text.slice(at + name.length).trimStart().charAt(0) || ' ');
    if (!quoted) continue;
    // The sentence and line around it, looked for within a bounded window: a page can repeat a
    // quoted name many times in text with no sentence ends, and the work must stay linear.
    const from = Math.max(0, at - CONTEXT_CHARS);
    const head = text.slice(from, Math.max(from, at - 1));
    const tail = text.slice(at + name.length + 1, at + name.length + 1 + CONTEXT_CHARS);
    const sentence = head.slice(lastBoundary(head, ['.', '!', '?', '\n']) + 1) + name + tail.slice(0, firstBoundary(tail, ['. ', '!', '?', '\n']));
    const line = head.slice(lastBoundary(head, ['\n']) + 1) + name + tail.slice(0, firstBoundary(tail, ['. ', '!', '?', '\n']));
    if (VERB_ANYWHERE.test(sentence) || ADDRESSED.test(line)) return true;
  }
  return false;
}

/** How far around a mention of the name its sentence is looked for. */
const CONTEXT_CHARS = 300;

function lastBoundary(text: string, marks: string[]): number {
  return Math.max(-1, ...marks.map((c) => text.lastIndexOf(c)));
}

function firstBoundary(text: string, marks: string[]): number {
  const ends = marks.map((c) => text.indexOf(c)).filter((i) => i !== -1);
  return ends.length ? Math.min(...ends) : text.length;
}
