/**
 * Which sections of a page to send with a question: BM25 over the page's own sections (each
 * section's heading path counts as part of its text), the best that fit the budget, then put
 * back in page order. Lexical and language-agnostic: words are runs of letters and digits in any
 * script, lightly stemmed; Chinese, Japanese and Korean text, written without spaces, counts in
 * character pairs. Linear in the page and the question.
 */
import { sentSize, type Section } from './sections';

const K1 = 1.2;
const B = 0.75;
/** The page's opening section is sent first when it is no more than this share of the budget. */
const LEAD_SHARE = 0.2;

/** Common words of the languages FoxAgent's users most often ask in, which carry no topic. */
const STOPWORDS = new Set(
  (
    'a an and are as at be been but by can could did do does for from had has have how i if in into is it its me my no not of on or our so ' +
    'than that the their them then there these they this those to was we were what when where which who whom why will with would you your ' +
    'about after all also any before between both each few more most other over same some such through under until up very page article tell say says said ' +
    'der die das und ist ein eine einen einem einer zu den dem des mit von im auf für nicht sich auch es als wie was wer wo warum ' +
    'le la les et est un une des du de en que qui dans pour pas sur au aux ce cette il elle ils quoi où comment pourquoi'
  ).split(' '),
);

/** Scripts written without spaces between words. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const WORD = /[\p{L}\p{M}\p{N}]+/gu;

/** The terms of a text: lowercase words without stopwords, lightly stemmed; pairs for unspaced scripts. */
export function termsOf(text: string): string[] {
  const terms: string[] = [];
  for (const [word] of text.toLowerCase().matchAll(WORD)) {
    if (UNSPACED.test(word)) {
      for (let i = 0; i < word.length - 1; i++) terms.push(word.slice(i, i + 2));
      if (word.length === 1) terms.push(word);
      continue;
    }
    if (STOPWORDS.has(word) || (word.length < 2 && !/\d/.test(word))) continue;
    terms.push(stem(word));
  }
  return terms;
}

/**
 * Plural and tense endings, and a final e, so that "prices", "price" and "priced" are one term,
 * as are "reports", "reported" and "reporting".
 */
function stem(word: string): string {
  if (word.length <= 4) return word;
  let root = word;
  if (root.endsWith('ies')) root = `${root.slice(0, -3)}y`;
  else if (/(ss|x|z|ch|sh)es$/.test(root)) root = root.slice(0, -2);
  else if (root.endsWith('ing') && root.length > 6) root = root.slice(0, -3);
  else if (root.endsWith('ed') && root.length > 5) root = root.slice(0, -2);
  else if (root.endsWith('s') && !root.endsWith('ss')) root = root.slice(0, -1);
  return root.length > 4 && root.endsWith('e') ? root.slice(0, -1) : root;
}

/** BM25 score of each section against the question, by section index. */
export function scoreSections(sections: readonly Section[], question: string): number[] {
  const query = [...new Set(termsOf(question))];
  if (!query.length || !sections.length) return sections.map(() => 0);
  const wanted = new Set(query);
  const counts: Map<string, number>[] = [];
  const lengths: number[] = [];
  const documentFrequency = new Map<string, number>();
  for (const section of sections) {
    const terms = termsOf(`${section.headings.join(' ')}\n${section.text}`);
    lengths.push(terms.length);
    const count = new Map<string, number>();
    for (const term of terms) if (wanted.has(term)) count.set(term, (count.get(term) ?? 0) + 1);
    for (const term of count.keys()) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
    counts.push(count);
  }
  const n = sections.length;
  const averageLength = lengths.reduce((a, b) => a + b, 0) / n || 1;
  return counts.map((count, i) => {
    let score = 0;
    for (const term of query) {
      const tf = count.get(term);
      if (!tf) continue;
      const df = documentFrequency.get(term) ?? 0;
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      score += (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * lengths[i]!) / averageLength));
    }
    return score;
  });
}

export interface Selection {
  /** The chosen sections, in page order. */
  sections: Section[];
  /** Characters of page text chosen, and on the whole page. */
  chars: number;
  totalChars: number;
  /** Whether the question matched anything: without a match, the page is sent from its start. */
  matched: boolean;
}

/**
 * The sections to send: the opening section when it is small, then the best scored that fit in
 * `budgetChars` (each counted with its label), the rest of the budget filled in page order, all
 * put back in page order. A question that matches no section gets the page from its start.
 */
export function selectSections(sections: readonly Section[], question: string, budgetChars: number): Selection {
  const scores = scoreSections(sections, question);
  const matched = scores.some((s) => s > 0);
  const order = matched ? sections.map((_, i) => i).sort((a, b) => scores[b]! - scores[a]! || a - b) : sections.map((_, i) => i);
  const lead = sections[0];
  if (matched && lead && sentSize(lead) <= budgetChars * LEAD_SHARE) order.unshift(0);

  const chosen = new Set<number>();
  let used = 0;
  for (const i of order) {
    if (chosen.has(i)) continue;
    const size = sentSize(sections[i]!);
    if (used + size > budgetChars) {
      if (!matched) break;
      continue;
    }
    chosen.add(i);
    used += size;
  }
  return selectionOf(sections, [...chosen].sort((a, b) => a - b).map((i) => sections[i]!), matched);
}

/** The sections from `start` on, in page order, as many as fit in `budgetChars` (at least one): "Read on", "Pick a section". */
export function sectionsFrom(sections: readonly Section[], start: number, budgetChars: number): Selection {
  const picked: Section[] = [];
  let used = 0;
  for (let i = start; i < sections.length; i++) {
    const size = sentSize(sections[i]!);
    if (picked.length && used + size > budgetChars) break;
    picked.push(sections[i]!);
    used += size;
  }
  return selectionOf(sections, picked, true);
}

function selectionOf(sections: readonly Section[], picked: Section[], matched: boolean): Selection {
  return { sections: picked, chars: picked.reduce((sum, s) => sum + s.text.length, 0), totalChars: sections.reduce((sum, s) => sum + s.text.length, 0), matched };
}
