/**
 * The checks every new call shape gets: as the reply, one call of `search` with its typed
 * arguments and its markup hidden in every chunking; after a line of prose, the call and the prose;
 * quoted inside a sentence, in a fence presented as an example, or in a block quote, prose (no call,
 * no failure, shown whole). `asQuoted` turns a shape into what a sentence would quote (one line).
 */
import { parseToolCalls } from '../../src/background/llm/tool-protocol/parse';
import type { ToolInput } from '../../src/background/llm/tool-protocol/tools';
import { CHUNK_SIZES, expectNoCall, squash, streamThrough } from './stream-through';

/**
 * `pairs` names the shapes whose markup is a closed special-token pair (`<|…|>` tokens, a namespaced tag,
 * GLM's argument tokens): inside a sentence they are calls, as servers' parsers read them, and the words stay.
 */
export function describeCallShapes(shapes: [string, string][], tools: readonly ToolInput[], expected: [string, Record<string, unknown>], pairs: readonly string[] = []): void {
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
    const plain = shapes.filter(([family]) => !pairs.includes(family));
    const paired = shapes.filter(([family]) => pairs.includes(family));
    if (plain.length) {
      test.each(plain)('%s inside a sentence, set off by blanks: prose', (_family, shape) => {
        quoted(`The model wrote ${shape.replace(/\n/g, ' ')} in its reply, which the server did not parse.`);
      });
    }
    if (paired.length) {
      test.each(paired)('%s inside a sentence, set off by blanks: a special-token pair stays a call, the words are kept', (_family, shape) => {
        const text = `Checking now ${shape.replace(/\n/g, ' ')} and then I answer.`;
        const result = parseToolCalls(text, tools);
        expect(result.calls.map((c) => [c.name, c.arguments])).toEqual([expected]);
        expect(squash(result.text)).toBe('Checking now and then I answer.');
        for (const size of CHUNK_SIZES) expect({ size, shown: squash(streamThrough(text, tools, size)) }).toEqual({ size, shown: 'Checking now and then I answer.' });
      });
    }
    test.each(shapes)('%s in a fence presented as an example: prose', (_family, shape) => {
      quoted(`For example, the format looks like this:\n\n\`\`\`\n${shape}\n\`\`\`\n\nThat is what the template asks for.`);
    });
    test.each(shapes)('%s in a block quote: prose', (_family, shape) => {
      quoted(`The log shows:\n\n${shape.split('\n').map((line) => `> ${line}`).join('\n')}\n\nThat was another model.`);
    });
  });
}
