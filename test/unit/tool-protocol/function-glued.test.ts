/**
 * `<function=name>{…}</function>` glued to the words before it counts when it ends the reply, as a
 * `<tool_call>` does; the same tag inside a sentence that goes on stays prose. Parser and
 * streaming filter agree.
 */
import { parseToolCalls } from '../../../src/background/llm/tool-protocol/parse';
import { streamThrough } from '../../support/stream-through';

const TOOLS = ['click', 'navigate'];
const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

describe('a <function=…> call glued to prose', () => {
  it.each([1, 5, 500])('is a call at the end of the reply, hidden from the stream in %i-character chunks', (size) => {
    const output = 'Clicking it now<function=click>{"id": 4}</function>';
    const r = parseToolCalls(output, TOOLS);
    expect(r.calls).toEqual([{ name: 'click', arguments: { id: 4 } }]);
    expect(squash(r.text)).toBe('Clicking it now');
    expect(squash(streamThrough(output, TOOLS, size))).toBe('Clicking it now');
  });

  it('stays prose inside a sentence that goes on', () => {
    const text = 'The footer says <function=click>{"id": 4}</function> in grey, which I ignore.';
    expect(parseToolCalls(text, TOOLS).calls).toEqual([]);
    expect(squash(streamThrough(text, TOOLS, 1))).toBe(squash(text));
  });

  it.each([1, 500])('is a cut-off failure, never a call, when still open at the end (%i-character chunks)', (size) => {
    const output = "I'll call: <function=navigate>{\"url\": \"https://a.exa";
    const r = parseToolCalls(output, TOOLS);
    expect(r.calls).toEqual([]);
    expect(r.failures.map((f) => [f.problem, f.name])).toEqual([['cut_off', 'navigate']]);
    expect(squash(r.text)).toBe("I'll call:");
    expect(squash(streamThrough(output, TOOLS, size))).toBe("I'll call:");
  });

  it.each([1, 3, 500])('left open with its JSON whole, then prose on lines below: the call, and the prose shown (%i-character chunks)', (size) => {
    const output = 'Let me open it.\n<function=navigate>{"url": "https://example.com/a"}\n\nI will wait for the page to load.';
    const r = parseToolCalls(output, TOOLS);
    expect(r.calls).toEqual([{ name: 'navigate', arguments: { url: 'https://example.com/a' } }]);
    expect(r.failures).toEqual([]);
    expect(squash(r.text)).toBe('Let me open it. I will wait for the page to load.');
    expect(squash(streamThrough(output, TOOLS, size))).toBe('Let me open it. I will wait for the page to load.');
  });

  it('left open with prose right after its JSON on the same line: no call runs', () => {
    const r = parseToolCalls('<function=click>{"id": 4} and then I will scroll', TOOLS);
    expect(r.calls).toEqual([]);
  });
});
