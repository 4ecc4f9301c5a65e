/**
 * Where the shapes added from the fifteenth held-out round stop: Python calls whose underscores a Markdown
 * renderer escaped (Mistral's API models), Python calls joined by shell line continuations (Qwen2.5), and a
 * Python call list naming one tool that is not offered beside offered ones.
 */
import { parseToolCalls } from '../../../src/background/llm/tool-protocol/parse';
import { expectReadAs } from '../../support/stream-through';

const TOOLS = [
  { name: 'get_rectangle_property', parameters: { type: 'object', properties: { perimeter: { type: 'integer' }, property: { type: 'string' } } } },
  { name: 'light_time', parameters: { type: 'object', properties: { years: { type: 'number' } } } },
  { name: 'circle.calculate_area', parameters: { type: 'object', properties: { radius: { type: 'integer' } } } },
];

const expectRead = (text: string, calls: unknown[], shown: string) => expectReadAs(text, TOOLS, calls, shown);
const rect = (property: string) => ({ name: 'get_rectangle_property', arguments: { perimeter: 14, property } });

describe("Markdown's escaped underscores in a Python call", () => {
  test.each([
    ['in a list, the name, a key and a value escaped', "[get\\_rectangle\\_property(perimeter=14, property='side\\_length')]", [rect('side_length')]],
    ['a bare call', "get\\_rectangle\\_property(perimeter=14, property='width')", [rect('width')]],
  ])('%s: the call, unescaped, hidden', (_name, text, calls) => {
    expectRead(text, calls, '');
  });

  test('an escaped underscore in a call whose name is written plainly is kept as written', () => {
    expect(parseToolCalls("get_rectangle_property(perimeter=14, property='a\\_b')", TOOLS).calls).toEqual([rect('a\\_b')]);
  });
});

test('Python calls joined by shell line continuations: each a call, hidden', () => {
  const text = 'light_time(years=4.22) \\\nlight_time(years=6.1) \\\nlight_time(years=5.88)';
  expectRead(text, [4.22, 6.1, 5.88].map((years) => ({ name: 'light_time', arguments: { years } })), '');
});

describe('a Python call list naming a tool that is not offered', () => {
  test('beside offered ones: their calls, and an unknown tool for it', () => {
    const result = parseToolCalls('[circle.calculate_area(radius=5), circle.calculate_perimeter(radius=5)]\n\nNote: there is no perimeter tool.', TOOLS);
    expect(result.calls).toEqual([{ name: 'circle.calculate_area', arguments: { radius: 5 } }]);
    expect(result.failures.map((f) => [f.problem, f.name])).toEqual([['unknown_tool', 'circle.calculate_perimeter']]);
    expect(result.text.trim()).toBe('Note: there is no perimeter tool.');
  });

  test('naming no offered tool at all, followed by words: prose, no failure', () => {
    const result = parseToolCalls('[draw_circle(radius=5)]\n\nThat is what I would run.', TOOLS);
    expect({ calls: result.calls, failures: result.failures }).toEqual({ calls: [], failures: [] });
  });
});
