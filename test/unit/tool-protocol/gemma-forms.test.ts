/**
 * Gemma 4 and FunctionGemma calls as models write them under load: several calls in one wrapper,
 * bare words as values, the paren form. A call of an offered tool that cannot be read is a failure
 * the repair turn answers, never a silent drop; quoted in a sentence it stays prose.
 */
import { parseToolCalls } from '../../../src/background/llm/tool-protocol/parse';
import { streamThrough } from '../../support/stream-through';

const TOOLS = ['click', 'fill', 'navigate'];
const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

describe('Gemma calls', () => {
  it('reads nested bare values, lists and numbers by their shape', () => {
    const r = parseToolCalls('<|tool_call>call:fill{id:7, value:two words, tags:[a, 3, true], opts:{deep:<|"|> kept  <|"|>}}<tool_call|>', TOOLS);
    expect(r.calls).toEqual([{ name: 'fill', arguments: { id: 7, value: 'two words', tags: ['a', 3, true], opts: { deep: ' kept  ' } } }]);
    expect(squash(r.text)).toBe('');
  });

  it('reads a call after prose on its own line, and both calls of one wrapper', () => {
    const r = parseToolCalls('I will look.\n<|tool_call>call:click{id:1}\ncall:navigate(url="https://a.example/")<tool_call|>', TOOLS);
    expect(r.calls).toEqual([{ name: 'click', arguments: { id: 1 } }, { name: 'navigate', arguments: { url: 'https://a.example/' } }]);
    expect(squash(r.text)).toBe('I will look.');
  });

  it('reports an offered tool whose body cannot be read as unparsable, and hides it', () => {
    const r = parseToolCalls('<|tool_call>call:click{id:<|"|>7}<tool_call|>', TOOLS);
    expect(r.calls).toEqual([]);
    expect(r.failures.map((f) => [f.problem, f.name])).toEqual([['unparsable', 'click']]);
    expect(squash(r.text)).toBe('');
  });

  it('reports a body cut at the end of the reply as cut off, and never runs it', () => {
    const r = parseToolCalls('<|tool_call>call:fill{id:7, value:<|"|>half a sent', TOOLS);
    expect(r.calls).toEqual([]);
    expect(r.failures.map((f) => f.problem)).toEqual(['cut_off']);
  });

  it('keeps a FunctionGemma call quoted mid-sentence as prose', () => {
    const text = 'The page reads <start_function_call>call:click{id:9}<end_function_call> and nothing else.';
    const r = parseToolCalls(text, TOOLS);
    expect(r.calls).toEqual([]);
    expect(squash(r.text)).toBe(squash(text));
  });

  it.each([1, 3, 64])('hides a FunctionGemma call from the stream in %i-character chunks', (size) => {
    const shown = streamThrough('Checking.\n<start_function_call>call:click{id:<escape>9<escape>}<end_function_call>', TOOLS, size);
    expect(squash(shown)).toBe('Checking.');
  });
});
