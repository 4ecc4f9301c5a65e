/**
 * Calls written as plain JSON or a Python list, without markup (Llama 3.x JSON, Llama 3.2 /
 * Gemma pythonic). Accepted on lines of their own: as the whole message, closing it after some
 * prose ("I'll open the menu.\n{"name": …}"), or between prose that does not present it as an
 * example. A JSON object inside a sentence is not a call.
 */
import { isCall, STRAY_CLOSER, type Detector, type ParsedCall, type Problem, type ScanContext, type Span } from '../scan';
import { attemptsFromJson, callsFromJson, NAME_KEYS } from '../call-objects';
import { isRecord, jsonEnding, matchBracket, parseLooseJson, splitTopLevel } from '../values';
import { parsePythonCall, pythonLiteral } from '../python-calls';
import { callsOfCutList, EXAMPLE_LEAD, mixedCallList } from './fenced';
import { afterLabel, decoratedCallLines, gluedNameLine, inlineCodeCall, pythonCallRun, pythonList, QUOTING, replyStart } from './reply-calls';

/** A Python list of `(name, {arguments})` tuples, each naming an offered tool (Mistral's API models in BFCL). */
function pairList(text: string, ctx: ScanContext): { calls: ParsedCall[]; problems: Problem[] } | undefined {
  if (!/^\[\s*\(/.test(text)) return undefined;
  const calls = callsFromJson(pythonLiteral(text), ctx.resolve, ctx.tools.schemaOf);
  return calls?.length ? { calls, problems: [] } : undefined;
}

/** JSON values back to back from `start` (Llama sometimes writes one object per call); `close` ends the first. */
function jsonRun(ctx: ScanContext, start: number, firstClose: number): Span | undefined {
  const calls: ParsedCall[] = [];
  const problems: Problem[] = [];
  const text = ctx.text;
  let i = start;
  let end = start;
  let close = firstClose;
  while (i < text.length && (text[i] === '{' || text[i] === '[') && !problems.length) {
    const stop = close === -1 ? text.length : close;
    const attempts = attemptsFromJson(parseLooseJson(text.slice(i, stop)), ctx.resolve, ctx.tools.schemaOf);
    // A call whose arguments cannot be read (an undeclared key holding an object) ends the run as a failure; one naming no
    // offered tool ends it before.
    if (!attempts || attempts.some((a) => !isCall(a) && a.problem !== 'unparsable')) break;
    calls.push(...attempts.filter(isCall));
    problems.push(...attempts.filter((a): a is Problem => !isCall(a)));
    end = stop;
    i = stop;
    while (i < text.length && /[\s;,]/.test(text[i]!)) i++;
    close = matchBracket(text, i);
  }
  // A `;` after the last call ends it, as between calls (the filter hides it with the call).
  const semicolon = /^[ \t]*;/.exec(text.slice(end, end + 16));
  if (semicolon && calls.length) end += semicolon[0].length;
  return calls.length || problems.length ? { start, end, calls, ...(problems.length ? { problems } : {}) } : undefined;
}

/** A call's JSON (or a list's first) opening with its name under any of the keys a call's name is read from (`"name"`, MemGPT's `"function"`, …). */
const NAMED_CALL_HEAD = new RegExp(`^(?:\\[\\s*)?\\{\\s*"(?:${NAME_KEYS.join('|')})"\\s*:\\s*"([\\w.-]{1,100})"\\s*,`);

/**
 * A Python call list opening the reply on a line of its own, closed, that calls an offered tool but cannot be read
 * (`[process_order(order_data={order_id=1, …})]`, Llama 3.2 3B, then words on the lines below): the call tried.
 */
function unreadableCallList(ctx: ScanContext, value: string): Problem | undefined {
  const head = /^\[\s*([A-Za-z_][\w.-]*)\s*\(/.exec(value);
  return head && ctx.resolve(head[1]!) ? { problem: 'unparsable', name: head[1] } : undefined;
}

/** Why a reply that is only a call-shaped value gives no call: an unknown tool, or Python calls that cannot be read. */
function wholeReplyProblem(ctx: ScanContext, value: string): Problem | undefined {
  const attempts = attemptsFromJson(parseLooseJson(value), ctx.resolve, ctx.tools.schemaOf);
  const problem = attempts?.find((a): a is Problem => !isCall(a));
  if (problem) return problem;
  const head = /^\[\s*([A-Za-z_][\w.-]*)\s*\(/.exec(value);
  // A list of calls the reply ended inside is cut off; one that closes but cannot be read, unparsable.
  if (head && ctx.resolve(head[1]!)) return { problem: matchBracket(value, 0) === -1 ? 'cut_off' : 'unparsable', name: head[1] };
  // A closed list of Python calls naming no offered tool, as the whole reply: a call of a tool that does not exist.
  if (head && value.trimEnd().endsWith(']') && matchBracket(value, 0) === value.trimEnd().length) {
    const parts = splitTopLevel(value.trim().slice(1, -1)).filter((p) => p.trim());
    if (parts.every((p) => parsePythonCall(p.trim()) !== undefined)) return { problem: 'unknown_tool', name: head[1] };
  }
  // A call's JSON naming an offered tool that cannot be read (quotes garbled, Llama 3.2), or stops inside its arguments.
  const named = NAMED_CALL_HEAD.exec(value);
  if (!named || !ctx.resolve(named[1]!) || parseLooseJson(value) !== undefined) return undefined;
  return { problem: jsonEnding(value.trim()) === 'cut' ? 'cut_off' : 'unparsable', name: named[1] };
}

/** A call's JSON naming an offered tool that the reply ended inside: cut off. */
function cutCall(ctx: ScanContext, value: string): Problem | undefined {
  const named = NAMED_CALL_HEAD.exec(value);
  return named && ctx.resolve(named[1]!) && jsonEnding(value.trim()) === 'cut' ? { problem: 'cut_off', name: named[1] } : undefined;
}

/** Where the reply's content ends: before trailing blanks and one end-of-turn token. */
export function contentEnd(text: string): number {
  let end = text.length;
  while (end > 0 && /\s/.test(text[end - 1]!)) end--;
  for (const token of ['<|eot_id|>', '<|eom_id|>', '<|end_of_text|>']) {
    if (text.startsWith(token, end - token.length)) {
      end -= token.length;
      while (end > 0 && /\s/.test(text[end - 1]!)) end--;
      break;
    }
  }
  return end;
}

/**
 * A call's JSON object one `}` short, then words on the next line (`{"function": …, "params": {…}⏎}⏎FUNCTION RETURN …`,
 * MemGPT's Mistral 7B running on past its call): the object closed at the end of the line where its members end. Found
 * in one pass: the first line end inside the outer object only, after a complete value, before a line opening with a
 * letter. Undefined where that closing gives no call of an offered tool.
 */
function callShortOfBrace(ctx: ScanContext, start: number): Span | undefined {
  const text = ctx.text;
  let depth = 0;
  let last = '';
  for (let i = start; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '"') {
      for (i++; i < text.length && text[i] !== '"' && text[i] !== '\n'; i++) if (text[i] === '\\') i++;
      if (text[i] !== '"') return undefined;
      last = '"';
    } else if (ch === '{' || ch === '[') depth++;
    else if (ch === '}' || ch === ']') {
      if (--depth === 0) return undefined;
    } else if (ch === '\n' && depth === 1 && /["}\]\w]/.test(last)) {
      const next = /^[ \t]*(\S)/.exec(text.slice(i + 1, i + 64));
      if (next && /[A-Za-z]/.test(next[1]!) && !/^[ \t]*(?:true|false|null)\b/.test(text.slice(i + 1, i + 64))) {
        const calls = callsFromJson(parseLooseJson(`${text.slice(start, i)}}`), ctx.resolve, ctx.tools.schemaOf);
        return calls ? { start, end: i, calls } : undefined;
      }
    }
    if (ch !== ' ' && ch !== '\t' && ch !== '\r' && ch !== '\n' && ch !== '"') last = ch;
  }
  return undefined;
}

/** In a reply that opens a value it never closes, the last `{"name": …}` object, if it ends the reply and is a call. */
function restartedCall(ctx: ScanContext, start: number, tailEnd: number): Span | undefined {
  let last = -1;
  for (const m of ctx.text.slice(start + 1, tailEnd).matchAll(/\{\s*"name"\s*:/g)) last = start + 1 + m.index;
  if (last === -1 || matchBracket(ctx.text, last) !== tailEnd) return undefined;
  const calls = callsFromJson(parseLooseJson(ctx.text.slice(last, tailEnd)), ctx.resolve, ctx.tools.schemaOf);
  return calls ? { start, end: tailEnd, calls } : undefined;
}


/** An Anthropic tool_use block's opening, by its id (`{'id': 'toolu_…', 'input': {…}, 'name': …, 'type': 'tool_use'}`). */
export const LEAKED_TOOL_USE = /^\{\s*["']id["']\s*:\s*["']toolu_/;

/** Outermost openings tried on the reply's last line: each is matched in one pass, so a few keep the work linear. */
const TAIL_TRIES = 3;

/**
 * A JSON call closing the reply after words on its line, as Llama 3.x JSON parsers read it (vLLM's,
 * Dynamo's): `Hey, how are you? {"name": …}`. Not when the words on its line say where it comes from
 * (`The page says: {…}`): a page's text the model quotes does not run. A Python list there stays
 * prose, as in SGLang's parser: a bracketed call ending a sentence reads as a quotation; so does a list of strings.
 * Anthropic's tool_use blocks a gateway leaked into the text (Claude behind a proxy) may be glued to the words, and to
 * each other: a run of them ending the reply is its calls.
 */
function sameLineTail(ctx: ScanContext, tailEnd: number, covered: number): Span | undefined {
  const text = ctx.text;
  if (text[tailEnd - 1] !== '}' && text[tailEnd - 1] !== ']') return undefined;
  const lineStart = text.lastIndexOf('\n', tailEnd - 1) + 1;
  const opening = /[ \t]([{[])|(?<=\S)\{(?=\s*["']id["']\s*:\s*["']toolu_)/g;
  opening.lastIndex = Math.max(lineStart, covered);
  for (let tries = 0, m = opening.exec(text); m && m.index < tailEnd && tries < TAIL_TRIES; m = opening.exec(text), tries++) {
    const start = m.index + (m[1] ? 1 : 0);
    const close = matchBracket(text, start);
    // Anthropic's tool_use blocks a gateway leaked into the text as Python dicts, glued to the words and to each other.
    const leaked = LEAKED_TOOL_USE.test(text.slice(start, start + 40));
    if (ctx.isProtected(start) || (close !== tailEnd && !leaked)) continue;
    // A list of strings ending a sentence is a quotation, whatever calls its strings spell.
    if (/^\[\s*["']/.test(text.slice(start, start + 8))) return undefined;
    if (EXAMPLE_LEAD.test(text.slice(Math.max(0, start - 200), start)) || QUOTING.test(text.slice(Math.max(lineStart, start - 200), start))) return undefined;
    const json = jsonRun(ctx, start, close);
    return json && json.end === tailEnd ? { ...json, glue: 'tail' } : undefined;
  }
  return undefined;
}

/** Where an `Action:` label on a line of its own ends just before `at` (blank lines between allowed) starts; -1 if none. */
function actionLabelBefore(text: string, at: number): number {
  const lead = /(?:^|\n)([ \t]*Action:[ \t]*\r?\n\s*)$/.exec(text.slice(Math.max(0, at - 48), at));
  if (!lead) return -1;
  const start = at - lead[1]!.length;
  return start === 0 || text[start - 1] === '\n' ? start : -1;
}

export const bare: Detector = (ctx) => {
  const text = ctx.text;
  const firstSeen = text.search(/\S/);
  if (firstSeen === -1) return [];
  // LangChain's structured-chat prompt shows the action as `$JSON_BLOB`: small models copy its `$` before the object.
  const first = text.startsWith('${', firstSeen) ? firstSeen + 1 : firstSeen;
  const spans: Span[] = [];
  const tailEnd = contentEnd(text);
  // The whole message, or its tail after prose, starting at a line of its own.
  const starts = [first, ...[...text.matchAll(/\n[ \t]*\$?(?=[[{])|<\/(?:think|thinking|reasoning)>\s*(?=[[{])/gi)].map((m) => m.index + m[0].length)].sort((a, b) => a - b);
  // A start inside a value already read is part of that value: read each stretch once.
  let covered = 0;
  let shortTaken = false;
  for (const start of starts) {
    if (start < covered || ctx.isProtected(start)) continue;
    const ch = text[start];
    if (ch !== '{' && ch !== '[') continue;
    const close = matchBracket(text, start);
    const stop = close === -1 ? text.length : close;
    covered = stop;
    const json = jsonRun(ctx, start, close);
    const list = json || ch !== '[' ? undefined : (pairList(text.slice(start, stop), ctx) ?? pythonList(text.slice(start, stop), ctx.resolve));
    // A `,` or `;` ending the list's line goes with it (gemma-7b-it's `[f(…)],`), as between calls; the filter hides it so too.
    const listEnd = list ? stop + (/^[ \t]*[,;](?=[ \t]*(?:\r?\n|$))/.exec(text.slice(stop, stop + 16))?.[0].length ?? 0) : stop;
    const candidate: Span | undefined = json ?? (list ? { start, end: listEnd, calls: list.calls, ...(list.problems.length ? { problems: list.problems } : {}) } : undefined);
    if (!candidate && close === -1 && ch === '[') {
      // A list of calls the reply ended inside: the whole calls before the cut one run, the cut one is a failure.
      const whole = callsOfCutList(text.slice(start), ctx.resolve, ctx.tools.schemaOf);
      if (whole) {
        spans.push({ start, end: text.length, calls: whole, problems: [{ problem: 'cut_off' }] });
        continue;
      }
    }
    // Once per reply: the text after it is read again, and an object never closed runs to the reply's end.
    if (!candidate && close === -1 && ch === '{' && !shortTaken) {
      const short = callShortOfBrace(ctx, start);
      if (short) {
        spans.push(short);
        covered = short.end;
        shortTaken = true;
        continue;
      }
    }
    if (!candidate && close === -1) {
      // A call begun, abandoned and written again whole (Llama 3.2): the last call that ends the reply, for the whole stretch.
      const again = restartedCall(ctx, start, tailEnd);
      if (again) {
        spans.push(again);
        continue;
      }
    }
    if (!candidate) {
      // The whole reply is call-shaped JSON or a Python call list that names no offered tool, or cannot be read.
      // Or, after calls, a call's JSON begun on a line of its own and cut off by the end of the reply.
      const whole =
        start === first && stop >= tailEnd
          ? wholeReplyProblem(ctx, text.slice(start, stop))
          : close === -1 && spans.length
            ? cutCall(ctx, text.slice(start))
            : start === first && ch === '[' && /^[ \t]*\r?\n/.test(text.slice(stop))
              ? unreadableCallList(ctx, text.slice(start, stop))
              : undefined;
      // A JSON call list as the whole reply naming offered tools and others: its calls, and an unknown tool for each other.
      const mixed = whole?.problem === 'unknown_tool' ? mixedCallList(text.slice(start, stop), ctx.resolve, ctx.tools.schemaOf) : undefined;
      if (whole) spans.push({ start, end: stop, calls: mixed?.calls ?? [], problems: mixed?.problems ?? [whole] });
      continue;
    }
    // The `$` copied from `$JSON_BLOB` goes with the call.
    if (candidate.start === start && text[start] === '{' && text[start - 1] === '$') candidate.start--;
    // ReAct's `Action:` on the line before the call's JSON (SmolLM2, Llama 3.2 in agent courses), as before a fence
    // (formats/fenced.ts): part of the markup, and the turn ends at the action; what follows is the model running past its stop.
    const label = candidate.calls.length ? actionLabelBefore(text, candidate.start) : -1;
    if (label !== -1) {
      candidate.start = label;
      candidate.end = text.length;
    }
    // The server ate the wrapper's opening token and left its closing tag (`{…}\n</tool_call>`): the tag belongs to the call.
    const closer = STRAY_CLOSER.exec(text.slice(candidate.end, candidate.end + 64));
    if (closer) candidate.end += closer[0].length;
    covered = Math.max(covered, candidate.end);
    // An OpenAI-style `{"tool_calls": […]}` opening the reply is a call whatever follows it on its line.
    if (start === first && /^\{\s*"tool_calls"\s*:/.test(text.slice(start, start + 40))) candidate.glue = 'token';
    // So is a Python call list opening the reply with the model's words glued to it, no blank between: LFM2's, its call
    // tokens stripped (`[f(a=1)]Fetching…`). With a blank, words after it make it a quotation, as in SGLang's parser.
    if (start === first && list && /[^\s]/.test(text[candidate.end] ?? ' ')) candidate.glue = 'token';
    // A call may stand at the start, at the end after prose, or on its own lines between prose,
    // unless the prose leading into it presents it as an example.
    // The calls before it present nothing: the lead is what stands after them.
    if (start === first || candidate.end >= tailEnd || !EXAMPLE_LEAD.test(text.slice(Math.max(spans.at(-1)?.end ?? 0, start - 200), start))) spans.push(candidate);
  }
  // A call ending the reply after the model's words on its line (`Hey, how are you? {"name": …}`), unless the words present it as an example.
  if (!spans.some((s) => s.end >= tailEnd)) {
    const tail = sameLineTail(ctx, tailEnd, covered);
    if (tail) spans.push(tail);
  }
  // A message that opens with Python calls on a line of their own: `read_page()`, `f(a=1); f(a=2);`, then perhaps the model's words.
  if (!spans.length) {
    const whole = text.trim();
    // Functionary v3.2: the recipient's name on its line, then the arguments, and nothing else; other models set the
    // name in bold or code (`**ToolConfirmationDecision**`, DeepSeek-R1 distills on Groq).
    const recipient = /^(\*\*|`)?([A-Za-z_][\w.-]{0,99})\1[ \t]*\n\s*(?=\{)/.exec(whole);
    const args = recipient && ctx.resolve(recipient[2]!) && matchBracket(whole, recipient[0].length) === whole.length ? parseLooseJson(whole.slice(recipient[0].length)) : undefined;
    if (recipient && isRecord(args)) return [{ start: first, end: text.length, calls: [{ name: ctx.resolve(recipient[2]!)!, arguments: args }] }];
    const glued = gluedNameLine(ctx, tailEnd);
    if (glued) return [glued];
    const coded = inlineCodeCall(ctx, first, tailEnd);
    if (coded) return [coded];
    const run = pythonCallRun(ctx, replyStart(text)) ?? afterLabel(ctx, Math.max(replyStart(text), first), tailEnd) ?? decoratedCallLines(ctx, first, tailEnd);
    if (run) spans.push(run);
  }
  return spans;
};
