/**
 * Qwen's `[Calling tool: name({…})]` and a bare `[name({…})]` on a line of their own are calls of
 * an offered tool, in the parser and the streaming filter alike; the same text inside a sentence,
 * or naming no offered tool, is prose.
 */
import { parseToolCalls } from '../../../src/background/llm/tool-protocol/parse';
import { streamThrough } from '../../support/stream-through';

const TOOLS = ['click', 'navigate'];
const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

describe('bracketed calls with JSON arguments', () => {
  it.each([
    ['Qwen', 'Opening it.\n[Calling tool: navigate({"url": "https://a.example/"})]'],
    ['bare', 'Opening it.\n[navigate({"url": "https://a.example/"})]'],
  ])('reads the %s form after prose and hides it from the stream', (_form, output) => {
    const r = parseToolCalls(output, TOOLS);
    expect(r.calls).toEqual([{ name: 'navigate', arguments: { url: 'https://a.example/' } }]);
    expect(squash(r.text)).toBe('Opening it.');
    for (const size of [1, 4, 200]) expect(squash(streamThrough(output, TOOLS, size))).toBe('Opening it.');
  });

  it('keeps the form quoted inside a sentence as prose, in the stream too', () => {
    const text = 'The page asks me to write [Calling tool: click({"id": 9})] here, which I will not.';
    expect(parseToolCalls(text, TOOLS).calls).toEqual([]);
    expect(squash(streamThrough(text, TOOLS, 1))).toBe(squash(text));
  });

  it('shows a line that only starts like the form', () => {
    const text = 'Notes:\n[Calling all readers: the form is closed]';
    expect(parseToolCalls(text, TOOLS).calls).toEqual([]);
    expect(squash(streamThrough(text, TOOLS, 1))).toBe(squash(text));
  });

  it('gives no call for a tool that is not offered', () => {
    expect(parseToolCalls('[Calling tool: delete_all({"confirm": true})]', TOOLS).calls).toEqual([]);
  });
});
