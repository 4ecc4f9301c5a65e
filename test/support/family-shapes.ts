/**
 * The checks every new call shape gets: as the reply, one call of `search` with its typed
 * arguments and its markup hidden in every chunking; after a line of prose, the call and the prose;
 * quoted inside a sentence, in a fence presented as an example, or in a block quote, prose (no call,
 * no failure, shown whole). `asQuoted` turns a shape into what a sentence would quote (one line).
 */
import { parseToolCalls } from '../../src/background/llm/tool-protocol/parse';
import type { ToolInput } from '../../src/background/llm/tool-protocol/tools';
import { CHUNK_SIZES, expectNoCall, squash, streamThrough } from './stream-through';

export function describeCallShapes(shapes: [string, string][], tools: readonly ToolInput[], expected: [string, Record<string, unknown>]): void {
  describe('each shape as the reply', () => {
    test.each(shapes)('%s: one call with its typed arguments, its markup hidden in every chunking', (_family, shape) => {
      const result = parseToolCalls(shape, tools);
      expect(result.calls.map((c) => [c.name, c.arguments])).toEqual([expected]);
      expect(result.text).toBe('');
      for (const size of CHUNK_SIZES) expect({ size, shown: squash(streamThrough(shape, tools, size)) }).toEqual({ size, shown: '' });
    });

    test.each(shapes)('%s after a line of prose: the call, and the prose kept', (_family, shape) => {
      const result = parseToolCalls(`Let me look that up.\n${shape}`, tools);
      expect(result.calls.map((c) => c.name)).toEqual([expected[0]]);
      expect(squash(result.text)).toBe('Let me look that up.');
    });
  });

  describe('each shape quoted', () => {
    const quoted = (text: string) => expect(squash(expectNoCall(text, tools).text)).toBe(squash(text));
    test.each(shapes)('%s inside a sentence, set off by blanks: prose', (_family, shape) => {
      quoted(`The model wrote ${shape.replace(/\n/g, ' ')} in its reply, which the server did not parse.`);
    });
    test.each(shapes)('%s in a fence presented as an example: prose', (_family, shape) => {
      quoted(`For example, the format looks like this:\n\n\`\`\`\n${shape}\n\`\`\`\n\nThat is what the template asks for.`);
    });
    test.each(shapes)('%s in a block quote: prose', (_family, shape) => {
      quoted(`The log shows:\n\n${shape.split('\n').map((line) => `> ${line}`).join('\n')}\n\nThat was another model.`);
    });
  });
}
