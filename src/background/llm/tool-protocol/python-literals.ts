/**
 * Python's syntax as the call readers need it: literals written as JSON's, for `pythonLiteral` (values.ts): tuples as
 * lists, objects built by constructors from keyword arguments as those objects, triple-quoted strings as JSON strings;
 * and the brackets a call cut off after a whole value needs.
 */
import { endsString } from './json-repairs';

/** A keyword argument's name and its `=` (not `==`), from where a constructor's argument starts. */
const KEYWORD = /\s*([A-Za-z_]\w{0,99})\s*=(?!=)/y;

/**
 * A Python literal with its tuples written as lists (`(46.6, 1.88)` → `[46.6, 1.88]`, `()` → `[]`), a value merely
 * parenthesised (`(5)`) without its parentheses, and an object built by a constructor from keyword arguments as that
 * object (`Record(name='Ada', tags=['x'])` → `{"name": 'Ada', "tags": ['x']}`, NexusRaven's dataclasses); any other
 * parenthesis right after a name is a call's, and stays. Undefined when the text has no parenthesis outside strings.
 * Two passes: one pairs the parentheses and notes where the arguments at their top level start, one writes the text.
 */
export function withTuplesAsLists(text: string): string | undefined {
  const closeOf = new Map<number, number>();
  /** Where each parenthesis's arguments start: after it, and after each comma at its top level. */
  const partsOf = new Map<number, number[]>();
  const open: { at: number; paren: boolean }[] = [];
  let quote = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quote) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = '';
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '(' || ch === '[' || ch === '{') {
      open.push({ at: i, paren: ch === '(' });
      if (ch === '(') partsOf.set(i, [i + 1]);
    } else if (ch === ')' || ch === ']' || ch === '}') {
      const top = open.pop();
      if (top?.paren && ch === ')') closeOf.set(top.at, i);
    } else if (ch === ',' && open.at(-1)?.paren) partsOf.get(open.at(-1)!.at)!.push(i + 1);
  }
  if (!closeOf.size) return undefined;
  /** What replaces the character at each index, where anything does. */
  const replaced: (string | undefined)[] = new Array<string | undefined>(text.length);
  for (const [at, close] of closeOf) {
    const parts = partsOf.get(at)!;
    if (/[\w.]/.test(text[at - 1] ?? '')) {
      constructorAsObject(text, at, close, parts, replaced);
      continue;
    }
    const empty = !text.slice(at + 1, close).trim();
    const list = parts.length > 1 || empty;
    replaced[at] = list ? '[' : '';
    replaced[close] = list ? ']' : '';
  }
  const pieces: string[] = [];
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const by = replaced[i];
    if (by === undefined) continue;
    pieces.push(text.slice(from, i), by);
    from = i + 1;
  }
  pieces.push(text.slice(from));
  return pieces.join('');
}

/** `Name(key=value, …)` at `at` (its parenthesis) as `{"key": value, …}` in `replaced`, where every argument is a keyword's. */
function constructorAsObject(text: string, at: number, close: number, parts: number[], replaced: (string | undefined)[]): void {
  const keys: { from: number; to: number; key: string }[] = [];
  for (const from of parts) {
    KEYWORD.lastIndex = from;
    const m = KEYWORD.exec(text);
    if (!m) {
      // A comma closing the arguments (`Record(a=1,)`): nothing after it.
      if (from > at + 1 && !text.slice(from, close).trim()) continue;
      return;
    }
    keys.push({ from, to: KEYWORD.lastIndex, key: m[1]! });
  }
  let name = at;
  while (name > 0 && /[\w.]/.test(text[name - 1]!)) name--;
  for (let i = name; i < at; i++) replaced[i] = '';
  replaced[at] = '{';
  replaced[close] = '}';
  for (const { from, to, key } of keys) {
    replaced[from] = ` "${key}":`;
    for (let i = from + 1; i < to; i++) replaced[i] = '';
  }
}

/** Python's escapes inside a string, as its reader turns them into characters; a backslash before a line break joins the lines. */
const PYTHON_ESCAPES: Readonly<Record<string, string>> = { '\n': '', n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"' };

/**
 * The text with each triple-quoted string (`'''…'''`, `"""…"""`, Gemini's code edits) written as a JSON string, so the
 * readers of single-line literals read it whole: quotes, commas, brackets and line breaks inside it are its own. Other
 * strings are passed over as written. One pass; unchanged where a triple quote is never closed.
 */
export function withTripleQuotesAsJson(text: string): string {
  const pieces: string[] = [];
  let from = 0;
  let quote = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quote) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = '';
      continue;
    }
    if (ch !== '"' && ch !== "'") continue;
    if (text[i + 1] !== ch || text[i + 2] !== ch) {
      // `''` is an empty string: not the opening of a triple quote.
      if (text[i + 1] === ch) i++;
      else quote = ch;
      continue;
    }
    const triple = ch.repeat(3);
    let close = i + 3;
    for (;;) {
      close = text.indexOf(triple, close);
      if (close === -1) return pieces.length ? pieces.join('') + text.slice(from) : text;
      let slashes = 0;
      while (text[close - 1 - slashes] === '\\') slashes++;
      if (slashes % 2 === 0) break;
      close++;
    }
    const body = text.slice(i + 3, close).replace(/\\([\s\S])/g, (escape, c: string) => PYTHON_ESCAPES[c] ?? escape);
    pieces.push(text.slice(from, i), JSON.stringify(body));
    i = close + 2;
    from = close + 3;
  }
  return pieces.length ? pieces.join('') + text.slice(from) : text;
}

/**
 * The closing brackets a Python call the reply ended inside needs, where its last value is whole: a closed string or
 * bracket, perhaps with a comma after it (`goto("http://…"`, its `)` taken by a stop sequence). Undefined where the text
 * stops inside a string, after a bare word or number (`True`, `12`: it may go on), after `=` or an opening bracket, or
 * where nothing is open.
 */
export function closersOfCutCall(text: string): string | undefined {
  const open: string[] = [];
  let quote = '';
  /** The last two characters outside strings that are not blanks (a string's closing quote counts). */
  let last = '';
  let before = '';
  const mark = (ch: string) => {
    before = last;
    last = ch;
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quote) {
      if (ch === '\\') i++;
      else if (endsString(text, i, quote)) {
        quote = '';
        mark(ch);
      }
      continue;
    }
    if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '(' || ch === '[' || ch === '{') open.push(ch === '(' ? ')' : ch === '[' ? ']' : '}');
    else if ((ch === ')' || ch === ']' || ch === '}') && open.pop() !== ch) return undefined;
    if (!/\s/.test(ch) && ch !== '"' && ch !== "'") mark(ch);
  }
  const end = last === ',' ? before : last;
  if (quote || !open.length || !/^["')\]}]$/.test(end)) return undefined;
  return open.reverse().join('');
}
