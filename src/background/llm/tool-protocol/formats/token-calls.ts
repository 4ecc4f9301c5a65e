/**
 * Call formats written wholly in a model's own special tokens, each read as vLLM's parser for the model reads it.
 * Nothing else writes these tokens, so a call is one wherever it stands.
 *
 * - Solar Open 2 (Upstage): `<|tool_call:start|>name`, then `<|tool_arg:start|>key<|tool_arg:value|>value<|tool_arg:end|>`
 *   for each argument, then `<|tool_call:end|>`. Values are text, typed by the tool's schema.
 * - PLaMo 3 (Preferred Networks): `<|plamo:begin_tool_requests:plamo|>` around requests, each
 *   `<|plamo:begin_tool_request:plamo|><|plamo:begin_tool_name:plamo|>name<|plamo:end_tool_name:plamo|>` then
 *   `<|plamo:begin_tool_arguments:plamo|><|plamo:constrain|>json<|plamo:msg|>{…}<|plamo:end_tool_arguments:plamo|>` and
 *   `<|plamo:end_tool_request:plamo|>`. (Its `<|plamo:tag|>` after the block goes as the template's other tokens do.)
 */
import { matchesOf, named, pairHeadsWithEnds, spanOf, type Attempt, type Detector, type ScanContext, type Span } from '../scan';
import { isRecord, jsonEnding, parseLooseJson } from '../values';
import { escapeRegExp } from '../template-tokens';
import { XmlNode } from '../xml-tree';

const SOLAR_HEAD = /<\|tool_call:start\|>[ \t]*([\w.-]{1,100})[ \t]*\r?\n?/g;
const SOLAR_END = /<\|tool_call:end\|>/g;
const SOLAR_ARG = /<\|tool_arg:start\|>([\s\S]*?)<\|tool_arg:value\|>([\s\S]*?)(<\|tool_arg:end\|>|$)/g;

export const solarOpen: Detector = (ctx) => {
  if (!ctx.text.includes('<|tool_call:start|>')) return [];
  const heads = [...matchesOf(SOLAR_HEAD, ctx.text)].filter((m) => !ctx.isProtected(m.index));
  const ends = [...matchesOf(SOLAR_END, ctx.text)];
  return pairHeadsWithEnds(heads, ends, ctx.text.length).map(({ head, from, end, to, stop }) =>
    spanOf(head.index, stop, [solarCall(ctx, head[1]!, ctx.text.slice(from, to), end !== undefined)], 'anywhere'),
  );
};

function solarCall(ctx: ScanContext, name: string, body: string, closed: boolean): Attempt {
  const args: Record<string, unknown> = {};
  let read = 0;
  for (const m of matchesOf(SOLAR_ARG, body)) {
    // A value the reply ended inside was cut off; one the call's end closed is whole.
    if (!m[3] && !closed) return { problem: 'cut_off', name };
    args[m[1]!.trim()] = new XmlNode(m[2]!, 'blanks');
    read = m.index + m[0].length;
  }
  if (body.slice(read).trim()) return closed ? { problem: 'unparsable', name } : { problem: 'cut_off', name };
  return named(ctx.resolve, name, args);
}

const PLAMO = (word: string) => `<|plamo:${word}:plamo|>`;
const PLAMO_BLOCK = new RegExp(`${escapeRegExp(PLAMO('begin_tool_requests'))}([\\s\\S]*?)(${escapeRegExp(PLAMO('end_tool_requests'))}|$)`, 'g');

/** The text between `open` and `close` in `piece` (to its end where `close` never comes), and whether `close` came. */
function between(piece: string, open: string, close: string): { value: string; closed: boolean } | undefined {
  const at = piece.indexOf(open);
  if (at === -1) return undefined;
  const from = at + open.length;
  const to = piece.indexOf(close, from);
  return to === -1 ? { value: piece.slice(from), closed: false } : { value: piece.slice(from, to), closed: true };
}

export const plamo: Detector = (ctx) => {
  if (!ctx.text.includes('<|plamo:begin_tool_requests:plamo|>')) return [];
  const spans: Span[] = [];
  for (const block of matchesOf(PLAMO_BLOCK, ctx.text)) {
    if (ctx.isProtected(block.index)) continue;
    // Each request read on its own, up to the next: a reply of requests never closed is read once.
    const attempts: Attempt[] = block[1]!.split(PLAMO('begin_tool_request')).slice(1).map((piece) => plamoCall(ctx, piece));
    spans.push(spanOf(block.index, block.index + block[0].length, attempts.length ? attempts : [{ problem: block[2] ? 'unparsable' : 'cut_off' }], 'anywhere'));
  }
  return spans;
};

function plamoCall(ctx: ScanContext, piece: string): Attempt {
  const name = between(piece, PLAMO('begin_tool_name'), PLAMO('end_tool_name'));
  if (!name?.closed) return { problem: 'cut_off', ...(name?.value.trim() ? { name: name.value.trim() } : {}) };
  const callName = name.value.trim();
  const args = between(piece, PLAMO('begin_tool_arguments'), PLAMO('end_tool_arguments'));
  if (!args) return { problem: 'cut_off', name: callName };
  const json = args.value.replace(/^\s*(?:<\|plamo:constrain\|>\s*json\s*)?(?:<\|plamo:msg\|>)?/, '').trim();
  if (!args.closed && (!json || jsonEnding(json) === 'cut')) return { problem: 'cut_off', name: callName };
  const value = json ? parseLooseJson(json) : {};
  return isRecord(value) ? named(ctx.resolve, callName, value) : { problem: 'unparsable', name: callName };
}
