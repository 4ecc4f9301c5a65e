/**
 * Continue's tool blocks, usually in a ```tool fence:
 *
 *     TOOL_NAME: read_file
 *     BEGIN_ARG: filepath
 *     "src/a.ts"
 *     END_ARG
 *
 * A value is JSON where it reads as JSON (a quoted string, a number), otherwise its text. A block
 * cut before `END_ARG` keeps a value only if it is complete JSON.
 */
import { matchesOf, named, spanOf, type Attempt, type Detector, type ScanContext, type Span } from '../scan';
import { jsonEnding, parseLooseJson } from '../values';
import { XmlNode } from '../xml-tree';

const HEAD = /^[ \t]*TOOL_NAME:[ \t]*([\w.-]+)[ \t]*\r?(?:\n|$)/;

/** The call a block starting at the beginning of `body` holds, or undefined when it is not one. */
export function continueCall(ctx: ScanContext, body: string, cut = false): Attempt | undefined {
  const head = HEAD.exec(body.replace(/^\s*\n/, ''));
  if (!head) return undefined;
  const rest = body.slice(body.indexOf(head[0]) + head[0].length);
  const args: Record<string, unknown> = {};
  for (const m of matchesOf(/^[ \t]*BEGIN_ARG:[ \t]*([\w.-]+)[ \t]*\r?\n([\s\S]*?)(^[ \t]*END_ARG[ \t]*\r?$|(?=^[ \t]*BEGIN_ARG:)|$(?![\s\S]))/gm, rest)) {
    const raw = m[2]!.replace(/\r?\n$/, '');
    const trimmed = raw.trim();
    const ended = m[3] !== '';
    if (!ended && (/^["[{]/.test(trimmed) ? jsonEnding(trimmed) !== 'closed' : true)) return { problem: 'cut_off', name: head[1] };
    const json = /^["[{\d-]|^(true|false|null)$/.test(trimmed) ? parseLooseJson(trimmed) : undefined;
    args[m[1]!] = json === undefined ? new XmlNode(raw) : json;
  }
  // A fence cut before any argument: the arguments never came.
  if (cut && !Object.keys(args).length) return { problem: 'cut_off', name: head[1] };
  return named(ctx.resolve, head[1]!, args);
}

/** Blocks outside a fence: from a `TOOL_NAME:` line to its last `END_ARG`, or the end of the reply. */
export const continueBlocks: Detector = (ctx) => {
  const spans: Span[] = [];
  let covered = 0;
  for (const m of matchesOf(/^[ \t]*TOOL_NAME:/gm, ctx.text)) {
    if (m.index < covered || ctx.isProtected(m.index)) continue;
    const next = ctx.text.indexOf('\nTOOL_NAME:', m.index + 1);
    const limit = next === -1 ? ctx.text.length : next + 1;
    const inBlock = ctx.text.slice(m.index, limit).lastIndexOf('END_ARG');
    const lastEnd = inBlock === -1 ? -1 : m.index + inBlock;
    let end = limit;
    if (lastEnd !== -1) {
      const lineEnd = ctx.text.indexOf('\n', lastEnd);
      end = lineEnd === -1 || lineEnd > limit ? limit : lineEnd;
    }
    const attempt = continueCall(ctx, ctx.text.slice(m.index, end));
    covered = end;
    if (attempt) spans.push(spanOf(m.index, end, [attempt]));
  }
  return spans;
};
