/**
 * Claude/MiniMax `<invoke name="…">` calls with `<parameter name="…">` values (wrapped or not, Gemini 3's
 * `<call_record tool="…">` alike, a chat client's `[Calling tool: name]` line before MiniMax's parameters), and DeepSeek's
 * DSML markup of the same shape.
 */
import { matchesOf, named, Regions, spanOf, type Attempt, type Detector, type ScanContext, type Span } from '../scan';
import { parseLooseJson } from '../values';
import { XmlNode } from '../xml-tree';
import { elementArguments, isBlock, jsonBody, PARAMETER_TAG, parametersOf } from './xml-arguments';

export function invokesIn(ctx: ScanContext, body: string, atEnd: boolean): Attempt[] {
  const attempts: Attempt[] = [];
  for (const m of matchesOf(/<(?:[\w-]{1,20}:|[｜|]{0,2}DSML[｜|]{0,2} ?)?(?:invoke\s+name|call_record\s+tool)\s*=\s*["']([^"']+)["'][^<>]*>([\s\S]*?)(<\/(?:[\w-]{1,20}:|[｜|]{0,2}DSML[｜|]{0,2} ?)?(?:invoke|call_record)>|$)/gi, body)) {
    const open = atEnd && !m[3];
    const json = m[3] ? jsonBody(m[2]!) : undefined;
    if (json) {
      attempts.push(named(ctx.resolve, m[1]!, json));
      continue;
    }
    if (!PARAMETER_TAG.test(m[2]!) && m[2]!.trim().startsWith('<')) {
      const args = elementArguments(ctx, m[2]!, m[1]!);
      attempts.push(args ? named(ctx.resolve, m[1]!, args) : { problem: open ? 'cut_off' : 'unparsable', name: m[1] });
      continue;
    }
    const args = parametersOf(m[2]!, open);
    attempts.push(args ? named(ctx.resolve, m[1]!, args) : { problem: 'cut_off', name: m[1] });
  }
  return attempts;
}

/** A chat client's log line naming the call, then the call's parameters as MiniMax writes them (MiniMax M2.7 in Hermes Agent). */
const LOGGED_INVOKE = /^\[Calling tool:[ \t]*([A-Za-z_][\w.-]{0,99})\][ \t]*\r?\n(?=\s*<parameter\s+name\s*=)/gm;
const INVOKE_END = /<\/invoke>/gi;

/** Claude / MiniMax style: `<invoke name="…"><parameter name="…">…</parameter></invoke>`, optionally wrapped; Gemini 3's `<call_record tool="…">` alike. */
export const invoke: Detector = (ctx) => {
  const spans: Span[] = [];
  // `[Calling tool: name]` copied from the client's log, then the parameters and `</invoke>` (its wrapper's closing tag after
  // it goes with the call as a leftover closer, parse.ts).
  if (ctx.text.includes('[Calling tool:')) {
    for (const m of matchesOf(LOGGED_INVOKE, ctx.text)) {
      if (ctx.isProtected(m.index) || !ctx.resolve(m[1]!)) continue;
      const from = m.index + m[0].length;
      INVOKE_END.lastIndex = from;
      const end = INVOKE_END.exec(ctx.text);
      const args = parametersOf(ctx.text.slice(from, end ? end.index : ctx.text.length), !end);
      spans.push(spanOf(m.index, end ? end.index + end[0].length : ctx.text.length, [args ? named(ctx.resolve, m[1]!, args) : { problem: 'cut_off', name: m[1] }]));
    }
  }
  const wrapper = /<((?:[\w-]+:)?(?:function_calls|tool_call))>([\s\S]*?)(<\/\1>|$)/gi;
  const claimed = new Regions();
  for (const m of matchesOf(wrapper, ctx.text)) {
    if (ctx.isProtected(m.index) || !/<(?:[\w-]{1,20}:)?invoke\s/i.test(m[2]!)) continue;
    const attempts = invokesIn(ctx, m[2]!, !m[3]);
    if (attempts.length) {
      // Closed, a namespaced wrapper (`<minimax:tool_call>`) is a special-token pair and a block stands as one: words may stand beside them.
      const anywhere = m[3] && (m[1]!.includes(':') || isBlock(m[2]!));
      spans.push(spanOf(m.index, m.index + m[0].length, attempts, anywhere ? 'anywhere' : undefined));
      claimed.add(m.index, m.index + m[0].length);
    }
  }
  // Gemini 3 writes the same shape as `<call_record tool="…">`.
  for (const m of matchesOf(/<(?:[\w-]{1,20}:)?(?:invoke\s+name|call_record\s+tool)\s*=\s*["'][^"']+["'][^<>]*>[\s\S]*?(?:<\/(?:[\w-]{1,20}:)?(?:invoke|call_record)>|$)/gi, ctx.text)) {
    if (ctx.isProtected(m.index) || claimed.contains(m.index)) continue;
    const attempts = invokesIn(ctx, m[0], true);
    if (attempts.length) spans.push(spanOf(m.index, m.index + m[0].length, attempts));
  }
  return spans;
};

/**
 * DeepSeek DSML: `<｜DSML｜function_calls>` (V3.2) or `<｜DSML｜tool_calls>` (V4), or V4.1's
 * `<｜DSML｜ calls>` with a blank after the token on every tag, holding `<｜DSML｜invoke name>` and
 * typed `<｜DSML｜parameter>`s. Its bars may come doubled (`<｜｜DSML｜｜ calls>`, DeepSeek in Cline), or be lost, the
 * leading one or both (`<DSML｜tool_calls>`, `<DSMLinvoke`, DeepSeek V4 drifting in long sessions).
 */
const DSML = '<[｜|]{0,2}DSML[｜|]{0,2} ?';
const DSML_CLOSE = '</[｜|]{0,2}DSML[｜|]{0,2} ?';
const DSML_BLOCK = new RegExp(`${DSML}(?:function_|tool_)?calls>([\\s\\S]*?)(${DSML_CLOSE}(?:function_|tool_)?calls>|$)`, 'g');
const DSML_INVOKE = new RegExp(`${DSML}invoke\\s+name\\s*=\\s*"([^"]+)"\\s*>([\\s\\S]*?)(${DSML_CLOSE}invoke>|$)`, 'g');
const DSML_PARAMETER = new RegExp(`${DSML}parameter\\s+name\\s*=\\s*"([^"]+)"(?:\\s+string\\s*=\\s*"(true|false)")?\\s*>([\\s\\S]*?)(${DSML_CLOSE}parameter>|$)`, 'g');

/** One DSML invoke's call: a JSON body, or typed parameters; cut when the reply ended inside it. */
function dsmlCall(ctx: ScanContext, inv: RegExpMatchArray): Attempt {
  const json = inv[3] ? jsonBody(inv[2]!) : undefined;
  if (json) return named(ctx.resolve, inv[1]!, json);
  const args: Record<string, unknown> = {};
  let cut = false;
  for (const p of matchesOf(DSML_PARAMETER, inv[2]!)) {
    if (!p[4]) cut = true;
    // string="false" marks a JSON value; otherwise the text as written.
    const value = p[2] === 'false' ? parseLooseJson(p[3]!) : undefined;
    args[p[1]!] = value === undefined ? new XmlNode(p[3]!) : value;
  }
  return cut ? { problem: 'cut_off', name: inv[1] } : named(ctx.resolve, inv[1]!, args);
}

export const dsml: Detector = (ctx) => {
  const spans: Span[] = [];
  const blocks = new Regions();
  for (const m of matchesOf(DSML_BLOCK, ctx.text)) {
    if (ctx.isProtected(m.index)) continue;
    const attempts = [...matchesOf(DSML_INVOKE, m[1]!)].map((inv) => dsmlCall(ctx, inv));
    if (!attempts.length) continue;
    // DSML's tokens are special tokens: a closed block is a call wherever it stands. Without its leading bar it is text
    // the model typed (V4's drift), and stands as markup does, on lines of its own.
    spans.push(spanOf(m.index, m.index + m[0].length, attempts, barred(ctx.text, m.index) ? (m[2] ? 'anywhere' : 'token') : undefined));
    blocks.add(m.index, m.index + m[0].length);
  }
  // An invoke whose block tokens the server dropped.
  for (const inv of matchesOf(DSML_INVOKE, ctx.text)) {
    if (ctx.isProtected(inv.index) || blocks.contains(inv.index)) continue;
    spans.push(spanOf(inv.index, inv.index + inv[0].length, [dsmlCall(ctx, inv)], barred(ctx.text, inv.index) ? (inv[3] ? 'anywhere' : 'token') : undefined));
  }
  return spans.sort((a, b) => a.start - b.start);
};

/** Whether the DSML tag at `at` opens with its bar, as the special token does (`<｜DSML｜`), not as typed text (`<DSML`). */
const barred = (text: string, at: number) => text[at + 1] === '｜' || text[at + 1] === '|';

