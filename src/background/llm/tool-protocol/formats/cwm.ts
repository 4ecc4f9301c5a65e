/**
 * Meta's Code World Model (CWM), as vLLM's `cwm` parser reads it: `<tool: label>` … `</tool>`, the body the
 * tool's name and then its input on the same line or the next (`terminal ls -la`). Where the label is itself an
 * offered tool's name (`<tool: bash>`), the body is the input alone. An input that is a JSON object is the
 * arguments; otherwise it is the value of the tool's one parameter.
 */
import { matchesOf, named, spanOf, type Attempt, type Detector, type ScanContext, type Span } from '../scan';
import { singleInput } from '../call-objects';
import { isRecord, parseLooseJson } from '../values';

const CWM_BLOCK = /<tool:[ \t]*([^>\s]{1,40})[ \t]*>([\s\S]*?)(<\/tool>|$)/gi;

export const cwmTool: Detector = (ctx) => {
  const spans: Span[] = [];
  if (!/<tool:/i.test(ctx.text)) return spans;
  for (const m of matchesOf(CWM_BLOCK, ctx.text)) {
    // The tag ends its line, as the model writes it, or the block closes on it: a tag named in a sentence is neither.
    if (ctx.isProtected(m.index) || (!m[3] && !/^[ \t]*(?:\r?\n|$)/.test(m[2]!))) continue;
    const attempt = cwmCall(ctx, m[1]!, m[2]!, m[3] !== '');
    if (attempt) spans.push(spanOf(m.index, m.index + m[0].length, [attempt], 'tail'));
  }
  return spans;
};

/** The call one block holds; undefined for a block holding nothing at all (a tag named in passing). */
function cwmCall(ctx: ScanContext, label: string, body: string, closed: boolean): Attempt | undefined {
  const text = body.trim();
  let name = label;
  let input = text;
  if (!ctx.resolve(label)) {
    const head = /^(\S{1,100})(?:[ \t]*\r?\n|[ \t]+|$)/.exec(text);
    if (!head) return closed ? undefined : { problem: 'cut_off' };
    name = head[1]!;
    input = text.slice(head[0].length).trim();
  }
  // Left open at the end of the reply, the input may have been cut anywhere.
  if (!closed) return { problem: 'cut_off', name };
  const tool = ctx.resolve(name);
  if (!tool) return named(ctx.resolve, name, {});
  if (!input) return named(ctx.resolve, name, {});
  if (input.startsWith('{')) {
    const json = parseLooseJson(input);
    return isRecord(json) ? named(ctx.resolve, name, json) : { problem: 'unparsable', name };
  }
  const args = singleInput(input, ctx.tools.schemaOf(tool));
  return args ? named(ctx.resolve, name, args) : { problem: 'unparsable', name };
}
