/**
 * Repairs tried, in order, on JSON a model wrote that does not parse: Python-ish or sloppy
 * JSON made strict, brackets a cut reply left open closed (only after a complete value), and
 * double quotes left unescaped inside a string escaped where each one's role is plain, closing
 * brackets written once too often dropped, braces written twice made single, strings joined with `+` made one, and Python's
 * tuples made lists. Each is one pass over the text, or two.
 */

/** Closes whatever brackets and string a truncated JSON text left open. */
export function closeOpen(text: string): string {
  const stack: string[] = [];
  let quote = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quote) {
      if (ch === '\\') i++;
      else if (ch === '"') quote = false;
      continue;
    }
    if (ch === '"') quote = true;
    else if (ch === '{') stack.push('}');
    else if (ch === '[') stack.push(']');
    else if ((ch === '}' || ch === ']') && stack.at(-1) === ch) stack.pop();
  }
  return text + (quote ? '"' : '') + stack.reverse().join('');
}

const WORD = /[A-Za-z_][\w-]*/y;

/** Whether the backslash at `at` begins an escape JSON knows. */
function validEscape(text: string, at: number): boolean {
  const next = text[at + 1]!;
  return /["\\/bfnrt]/.test(next) || (next === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(at + 2, at + 6)));
}

/** A call's name key and its colon, before a value. */
const NAME_KEY_BEFORE = /["'](?:name|tool|tool_name|function)["']\s*:$/;

/**
 * Where a JSON object written inside single quotes ends (Glaive's `"arguments": '{…}'`): just after the `}` that closes
 * the object at `open`, where a `'` follows it; -1 where it does not. Double-quoted strings inside are passed over, so an
 * apostrophe in one (`"Doctor's"`) does not end the quotes.
 */
function quotedObjectEnd(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
    } else if (ch === '{') depth++;
    else if (ch === '}' && --depth === 0) return text[i + 1] === "'" ? i + 1 : -1;
  }
  return -1;
}

/** What may follow a string's closing quote, after blanks. */
const AFTER_STRING = /[\s,:}\]]/;

/** A letter, as stands on both sides of an apostrophe. */
export const LETTER = /\p{L}/u;

/**
 * Whether the quote at `i` ends the string it is in. A `'` between two letters is an apostrophe (`'It's fresh'`, a model
 * quoting words in Python's single quotes): no string ends there in any text that can be read.
 */
export function endsString(text: string, i: number, quote: string): boolean {
  return text[i] === quote && !(quote === "'" && LETTER.test(text[i - 1] ?? '') && LETTER.test(text[i + 1] ?? ''));
}

/**
 * At a `'` opening a JSON object in single quotes whose first `'` after it cannot end a string (an apostrophe inside, as
 * `'{"text": "Doctor's"}'`): the index of the `'` that ends it, after the object's closing `}`. -1 where there is none,
 * `undefined` where the quotes need no such reading.
 */
export function quotedObjectClose(text: string, at: number): number | undefined {
  if (text[at] !== "'" || text[at + 1] !== '{') return undefined;
  const naive = text.indexOf("'", at + 1);
  if (naive === -1 || AFTER_STRING.test(text[naive + 1] ?? ' ')) return undefined;
  return quotedObjectEnd(text, at + 1);
}

/** Python-ish or sloppy JSON made strict: single-quoted strings, bare keys and names, True/None, trailing commas. */
export function strictify(text: string): string {
  let out = '';
  let i = 0;
  /** A quoted object was looked for and not found: not again, so the repair stays one pass. */
  let quotedObjectsTried = false;
  while (i < text.length) {
    const ch = text[i]!;
    // An apostrophe inside would end the quotes too early where the object's JSON shows where they end.
    const quotedEnd: number | undefined = quotedObjectsTried ? undefined : quotedObjectClose(text, i);
    if (quotedEnd !== undefined && quotedEnd !== -1) {
      out += JSON.stringify(text.slice(i + 1, quotedEnd));
      i = quotedEnd + 1;
      continue;
    }
    quotedObjectsTried ||= quotedEnd === -1;
    if (ch === '"' || ch === "'") {
      // A backslash JSON cannot escape with (a Windows path's `C:\Users`) is the backslash itself: the only reading. A string
      // holding one was written with its backslashes unescaped, so they all are (`C:\Users\me\test.txt`, not a tab).
      let raw = false;
      for (let k = i + 1; k < text.length && !endsString(text, k, ch); k++) {
        if (text[k] !== '\\' || k + 1 >= text.length) continue;
        raw ||= text[k + 1] !== "'" && !validEscape(text, k);
        k++;
      }
      let j = i + 1;
      let body = '';
      while (j < text.length && !endsString(text, j, ch)) {
        if (text[j] === '\\' && j + 1 < text.length) {
          const next = text[j + 1]!;
          body += next === "'" ? "'" : next === '"' || next === '\\' || (!raw && validEscape(text, j)) ? text.slice(j, j + 2) : `\\\\${next}`;
          j += 2;
          continue;
        }
        body += text[j] === '"' ? '\\"' : text[j] === '\n' ? '\\n' : text[j];
        j++;
      }
      out += `"${body}"`;
      i = j + 1;
      continue;
    }
    WORD.lastIndex = i;
    const word = WORD.exec(text);
    if (word) {
      const w = word[0];
      let k = i + w.length;
      while (/\s/.test(text[k] ?? '')) k++;
      const literal = w === 'True' ? 'true' : w === 'False' ? 'false' : w === 'None' ? 'null' : w;
      // A key, or a call's name left unquoted (`"name": read_rss_feed`, qwen2.5-coder): a string. Any other bare word for a
      // value stays a word, and the JSON unreadable: which string was meant is a guess.
      let before = i - 1;
      while (before >= 0 && /\s/.test(text[before]!)) before--;
      const valueWord = literal === w && text[before] === ':' && NAME_KEY_BEFORE.test(text.slice(Math.max(0, before - 16), before + 1));
      out += text[k] === ':' || valueWord ? `"${w}"` : literal;
      i += w.length;
      continue;
    }
    out += ch;
    i++;
  }
  return out.replace(/,(\s*[}\]])/g, '$1');
}

/**
 * Double quotes written unescaped inside a JSON string (`"He said "hello" to me"`), escaped: a
 * quote inside a string ends it only where what follows it (after blanks) can follow a string:
 * `,`, `:`, `}`, `]` or the end. One pass; the blanks after a quote are looked at once more at most.
 */
export function escapeStrayQuotes(text: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (inString && ch === '\\') {
      out += text.slice(i, i + 2);
      i++;
      continue;
    }
    if (ch !== '"') {
      out += ch;
      continue;
    }
    if (!inString) {
      inString = true;
      out += ch;
      continue;
    }
    let k = i + 1;
    while (k < text.length && /\s/.test(text[k]!)) k++;
    const ends = k >= text.length || text[k] === ',' || text[k] === ':' || text[k] === '}' || text[k] === ']';
    out += ends ? ch : '\\"';
    if (ends) inString = false;
  }
  return out;
}

/**
 * JSON without the closing brackets that close nothing open or the wrong kind of bracket (strings double-quoted, as after
 * `strictify`); a closing bracket of one opened further out closes the ones in between first (`[{"name": …, "arguments": {…}]`,
 * Mistral 7B writing one `}` too few: its arguments are complete, and the list's `]` shows where the call ends).
 */
export function withoutStrayClosers(text: string): string {
  const open: string[] = [];
  let out = '';
  let from = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '{' || ch === '[') open.push(ch === '{' ? '}' : ']');
    else if (ch === '}' || ch === ']') {
      if (open.at(-1) === ch) open.pop();
      else if (open.includes(ch)) {
        out += text.slice(from, i);
        while (open.at(-1) !== ch) out += open.pop();
        open.pop();
        from = i;
      } else {
        out += text.slice(from, i);
        from = i + 1;
      }
    }
  }
  return out + text.slice(from);
}

/**
 * JSON whose braces are all written twice (`{{"name": "John"}}`): a prompt built with Python's `str.format` or an f-string
 * showed its example so, and the model copied it (Llama 3.2 3B). Each `{{` and `}}` outside strings becomes one brace.
 */
export function withSingleBraces(text: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (inString) {
      if (ch === '\\') {
        out += text.slice(i, i + 2);
        i++;
        continue;
      }
      if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if ((ch === '{' || ch === '}') && text[i + 1] === ch) i++;
    out += ch;
  }
  return out;
}

/**
 * String literals joined with `+` as in JavaScript or Python (`"echo a\n" +⏎"echo b\n"`, Llama 3.1 8B building a file's
 * content), made one string. Strings double-quoted, as after `strictify`.
 */
export function withJoinedStrings(text: string): string {
  const pieces: string[] = [];
  let end = 0;
  let open = false;
  // The literals in order, each found after the last: `+` and blanks between two of them join them. A literal's closing
  // quote is written once the next shows it is not joined.
  for (const m of text.matchAll(STRING_LITERAL)) {
    const between = text.slice(end, m.index);
    const content = m[0].slice(1, -1);
    if (open && JOIN.test(between)) pieces.push(content);
    else pieces.push(open ? '"' : '', between, '"', content);
    open = true;
    end = m.index + m[0].length;
  }
  return pieces.join('') + (open ? '"' : '') + text.slice(end);
}
const STRING_LITERAL = /"(?:[^"\\\n]|\\.)*"/g;
const JOIN = /^\s*\+\s*$/;

/**
 * JSON whose quotes were written escaped where no string is open (`{\"timezone\":\"UTC\"}` as a value, the model escaping
 * the arguments as if inside a string): a `\"` outside a string opens one that the next `\"` closes, and both are quotes.
 * Strings opened by a plain quote are read as JSON reads them. One pass.
 */
export function withQuotesUnescaped(text: string): string {
  let out = '';
  /** The quote that closes the open string: `"`, `\"`, or none. */
  let closer = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    const escapedQuote = ch === '\\' && text[i + 1] === '"';
    if (!closer) {
      if (escapedQuote || ch === '"') {
        closer = escapedQuote ? '\\"' : '"';
        out += '"';
        if (escapedQuote) i++;
      } else out += ch;
      continue;
    }
    if (closer === '\\"' && escapedQuote) {
      out += '"';
      closer = '';
      i++;
      continue;
    }
    if (closer === '"' && ch === '"') {
      out += '"';
      closer = '';
      continue;
    }
    if (ch === '\\') {
      out += text.slice(i, i + 2);
      i++;
      continue;
    }
    // A plain quote inside a string the escaped quote opened is a quote in it.
    out += ch === '"' ? '\\"' : ch;
  }
  return out;
}

/**
 * Arguments written as a string of JSON whose quotes were never escaped (`"arguments": "{"a": 1}"`, Apple's on-device
 * model in apfel): the object inside, unquoted. Only where the object closes right before the string's closing quote.
 */
export function withInnerJsonUnquoted(text: string, matchBracket: (text: string, at: number) => number): string {
  let out = '';
  let from = 0;
  for (const m of text.matchAll(/"(?:arguments|parameters|args|params)"\s*:\s*"(?=\{")/g)) {
    const open = m.index + m[0].length;
    if (open <= from) continue;
    const close = matchBracket(text, open);
    if (close === -1 || text[close] !== '"') continue;
    out += text.slice(from, open - 1) + text.slice(open, close);
    from = close + 1;
  }
  return out + text.slice(from);
}
