/** How an open stretch of markup is read as it arrives, and where it ends: the streaming filter's closers. */
import { NOT_MARKUP, OPEN, type Closer } from './stream-openers';
import { LEFTOVER_CLOSERS } from './scan';
import { BracketScan } from './stream-scans';
import { NOT_A_RUN as NOT_A_RUN_END } from './value-scans';

/**
 * Reads more of the open stretch: `text` is its part from `c.seen` on. Sets and returns where
 * the markup ends (an index into the stretch), OPEN while it is open, or NOT_MARKUP.
 */
export function feedCloser(c: Closer, text: string): number {
  if (c.decided !== OPEN) return c.decided;
  const offset = c.seen;
  c.seen += text.length;
  const decide = (end: number) => (c.decided = end);
  /** A short closing tag, searched in what arrived plus the end of what came before. */
  const search: Search = (re, tail, from) => {
    const window = tail + text;
    const base = offset - tail.length;
    re.lastIndex = Math.max(0, from - base);
    const m = re.exec(window);
    return { start: m ? base + m.index : OPEN, end: m ? base + m.index + m[0].length : OPEN, tail: window.slice(-64) };
  };
  switch (c.kind) {
    case 'tag': {
      if (c.bodyAt !== undefined && !c.bodyChecked) {
        let j = Math.max(0, c.bodyAt - offset);
        while (j < text.length && /\s/.test(text[j]!)) j++;
        if (j < text.length) {
          if (!/[\w{[<"]/.test(text[j]!)) return decide(NOT_MARKUP);
          c.bodyChecked = true;
        }
      }
      if (c.values) return decide(valueAwareEnd(c, text, offset, search));
      // The closing tag comes after the opening one's first character.
      const found = search(c.close, c.tail, 1);
      c.tail = found.tail;
      return decide(found.end);
    }
    case 'end':
      return OPEN;
    case 'balanced': {
      if (!c.scan) {
        const from = Math.max(0, (c.after ?? 0) - offset);
        if (c.after !== undefined && !c.brace) {
          const first = text.slice(from).search(/\S/);
          if (first === -1) return OPEN;
          if (text[from + first] !== '[' && text[from + first] !== '{') c.brace = true;
        }
        const at = c.brace ? text.indexOf('{', from) : text.slice(from).search(/[[{(]/);
        if (at === -1) return OPEN;
        const start = c.brace ? at : from + at;
        c.scan = new BracketScan(text[start]!, offset + start);
      }
      return decide(c.scan.feed(text, offset));
    }
    case 'fence': {
      // The lines after the opening one: the marker alone between blanks closes the block.
      const char = c.marker[0];
      for (let j = 0; j < text.length; j++) {
        const ch = text[j];
        c.strings?.feed(ch!);
        if (ch === '\n') {
          // Lines before the opening one (Command R+'s `Action:`) are passed over.
          if (c.skip) {
            c.skip--;
            continue;
          }
          if (c.lineStart >= 0 && !c.strings?.open && (c.phase === 'trail' || (c.phase === 'marker' && c.matched === c.marker.length))) return decide(offset + j);
          c.lineStart = offset + j + 1;
          c.phase = 'lead';
          c.matched = 0;
        } else if (c.phase === 'fail') {
          continue;
        } else if (ch === ' ' || ch === '\t') {
          if (c.phase === 'marker') c.phase = c.matched === c.marker.length ? 'trail' : 'fail';
        } else if (ch === char && (c.phase === 'lead' || c.phase === 'marker')) {
          c.phase = 'marker';
          if (++c.matched > c.marker.length) c.phase = 'fail';
        } else c.phase = 'fail';
      }
      // The line still arriving closes the block too, as the end of the text.
      const closing = c.lineStart >= 0 && !c.strings?.open && (c.phase === 'trail' || (c.phase === 'marker' && c.matched === c.marker.length));
      return decide(closing ? c.seen : OPEN);
    }
    case 'tool-tag': {
      if (c.stuck) return OPEN;
      let j = Math.max(0, 1 - offset);
      if (c.openEnd === undefined) {
        for (; j < text.length; j++) {
          const ch = text[j];
          if (ch === '<') {
            c.stuck = true;
            return OPEN;
          }
          if (ch === '>') {
            c.openEnd = offset + j + 1;
            if (c.last === '/') return decide(c.openEnd);
            j++;
            break;
          }
          c.last = ch!;
        }
        if (c.openEnd === undefined) return OPEN;
      }
      // A call's tag holds child tags or JSON, or words for a tool that takes one input; "<click> tag to press…" is prose about tags.
      if (!c.bodyChecked) {
        while (j < text.length && /\s/.test(text[j]!)) j++;
        if (j === text.length) return OPEN;
        if (text[j] !== '<' && text[j] !== '{' && !c.words) return decide(NOT_MARKUP);
        c.bodyChecked = true;
      }
      const found = search(c.close, c.tail, c.openEnd);
      c.tail = found.tail;
      return decide(found.end);
    }
    case 'json-run': {
      if (c.whole) return OPEN;
      const end = c.run.feed(text, offset);
      if (end === NOT_A_RUN_END) {
        c.whole = true;
        return OPEN;
      }
      return decide(end);
    }
    case 'trailing': {
      for (let j = Math.max(0, c.length - offset); j < text.length; j++) if (!/\s/.test(text[j]!)) return decide(NOT_MARKUP);
      return OPEN;
    }
    case 'uncoded': {
      // A backtick closes the inline code around the calls, as the parser pairs it; a blank line ends the paragraph first.
      for (let j = Math.max(0, c.length - offset); j < text.length; j++) {
        const ch = text[j]!;
        if (ch === '`') return decide(NOT_MARKUP);
        if (ch === '\n') {
          if (c.blank) return decide(c.length);
          c.blank = true;
        } else if (ch !== ' ' && ch !== '\t' && ch !== '\r') c.blank = false;
      }
      return OPEN;
    }
  }
}

/** A short marker searched in what arrived plus the end of what came before (`tail`), from index `from` of the stretch. */
type Search = (re: RegExp, tail: string, from: number) => { start: number; end: number; tail: string };

/** How many closing markers inside a value are passed over at most, as in the parser. */
const MAX_PASSED = 4;

/**
 * Where a wrapper whose body may hold values ends: at its first closing marker outside an open
 * value (the value scan reads the body up to each marker found), or, when no later marker comes
 * or the wrapper opens again first, at the first one passed over. OPEN while undecided.
 */
function valueAwareEnd(c: Extract<Closer, { kind: 'tag' }>, text: string, offset: number, search: Search): number {
  const values = c.values!;
  let end = OPEN;
  for (;;) {
    const found = search(c.close, c.tail, c.from ?? 1);
    if (found.end === OPEN) break;
    values.feedTo(text, offset, found.end);
    if (c.fallback !== undefined && c.reopen && opensBefore(c.reopen, c.tail + text, offset - c.tail.length, c.from!, found.start)) {
      end = c.from!;
      break;
    }
    if ((c.passed ?? 0) >= MAX_PASSED || !values.insideValue) {
      end = found.end;
      break;
    }
    c.fallback ??= found.end;
    c.passed = (c.passed ?? 0) + 1;
    c.from = found.end;
  }
  if (end === OPEN) {
    values.feedTo(text, offset, offset + text.length);
    // The wrapper opening again after a marker passed over: the parser ends the call at that marker.
    if (c.fallback !== undefined && c.reopen && opensBefore(c.reopen, c.tail + text, offset - c.tail.length, c.from!, Infinity)) end = c.from!;
  }
  c.tail = (c.tail + text).slice(-64);
  return end;
}

/** Whether `open` matches in `window` (which starts at stretch index `base`) at or after `from` and before `before`. */
function opensBefore(open: RegExp, window: string, base: number, from: number, before: number): boolean {
  open.lastIndex = Math.max(0, from - base);
  const m = open.exec(window);
  return m !== null && base + m.index < before;
}

/** At the end of the reply: one last search over the whole stretch (`held`), for a closing tag that arrived in pieces. */
export function finalCloserEnd(c: Closer, held: string): number {
  if (c.decided !== OPEN) return c.decided;
  // Markers passed over as inside a value, and none came after them: the call ends at the last, as in the parser.
  if (c.kind === 'tag' && c.fallback !== undefined) return (c.decided = c.from!);
  if (c.kind === 'tag' || (c.kind === 'tool-tag' && c.openEnd !== undefined && c.bodyChecked && !c.stuck)) {
    c.close.lastIndex = c.kind === 'tag' ? 1 : c.openEnd!;
    const m = c.close.exec(held);
    if (m) return (c.decided = m.index + m[0].length);
  }
  return OPEN;
}

/**
 * Whether markup still open at the end of the reply is shown as text: a stretch the parser must
 * confirm that holds no call or failed call, or a tag that is not hidden unclosed.
 */
export function shownUnclosed(closer: Closer, held: string, holdsCalls: (stretch: string, mid?: boolean) => boolean): boolean {
  switch (closer.kind) {
    case 'tool-tag':
    case 'balanced':
    case 'fence':
    case 'trailing':
    case 'uncoded':
      return !holdsCalls(held);
    case 'end':
      return closer.verify === true && !holdsCalls(held, closer.mid);
    case 'json-run':
      return !holdsCalls(held, closer.mid);
    case 'tag':
      return !closer.hideIfUnclosed || (closer.verify === true && !holdsCalls(held, closer.mid));
  }
}

/** Whether held text after a hidden call may still become a wrapper's closing tag written again (LEFTOVER_CLOSER) and its line's end. */
export function mayBeLeftoverCloser(held: string): boolean {
  const rest = held.trimStart().toLowerCase();
  return rest.length < 32 && LEFTOVER_CLOSERS.some((c) => c.startsWith(rest) || (rest.startsWith(c) && /^[ \t]*$/.test(rest.slice(c.length))));
}

/** Whether held text after a finished call may still become what belongs to it (STRAY_CLOSER): a wrapper's closing tag (`\n</tool_`), `<|>`, brackets written once too often. */
export function strayCloserAhead(held: string): boolean {
  const rest = held.trimStart().toLowerCase();
  return held.length < 64 && (rest === '' || /^[}\]]{1,3}[ \t]*$/.test(rest) || ['</tool_call>', '</tool_calls>', '</function_call>', '</toolcall>', '</s>', '<|>', '<tool_call|>'].some((t) => t.startsWith(rest)));
}
