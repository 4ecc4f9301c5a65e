/**
 * Where the fixes from the twenty-eighth held-out round stop: the whole calls of a JSON call list the reply ended inside;
 * calls in bold or as headings making up the reply; several Python calls in one quoted string of a list; a call list
 * going on in quoted words; a `,` ending a call list's line; a Python call list opening the reply that cannot be read,
 * with words below it; a fenced call of an offered tool whose arguments cannot be read; `inputs` as an arguments key;
 * Gemma 4's bare call glued after its thought channel, and a stray `:` before `call:`; a `<function=` that names no
 * function; Qwen2.5-Coder's fill-in-the-middle tokens.
 */
import { parseToolCalls } from '../../../src/background/llm/tool-protocol/parse';
import { expectNoCall, expectReadAs, squash, streamThrough, CHUNK_SIZES } from '../../support/stream-through';

const object = (properties: Record<string, unknown>, required: string[] = []) => ({ type: 'object', properties, required });
const TOOLS = [
  { name: 'geocode_city', parameters: object({ city: { type: 'string' } }, ['city']) },
  { name: 'circle.calculate_area', parameters: object({ radius: { type: 'integer' } }, ['radius']) },
  { name: 'circle.calculate_circumference', parameters: object({ diameter: { type: 'integer' } }, ['diameter']) },
  { name: 'area_rectangle.calculate', parameters: object({ length: { type: 'integer' }, breadth: { type: 'integer' } }) },
  { name: 'process_order', parameters: object({ order_data: { type: 'object' } }, ['order_data']) },
  { name: 'bash', parameters: object({ command: { type: 'string' } }, ['command']) },
  { name: '__conversational_response', parameters: object({ response: { type: 'string' } }, ['response']) },
];
const failuresOf = (text: string) => parseToolCalls(text, TOOLS).failures.map((f) => f.problem);
/** The parser's text and the filter's, in every chunking, agree on `shown`. */
const expectShown = (text: string, shown: string) => {
  expect(squash(parseToolCalls(text, TOOLS).text)).toBe(shown);
  for (const size of CHUNK_SIZES) expect({ size, shown: squash(streamThrough(text, TOOLS, size)) }).toEqual({ size, shown });
};

describe('a JSON call list the reply ended inside (Gemma 3 1B at its token limit)', () => {
  const cut = '[\n  {"id": "call_id_0", "type": "function", "function": {"name": "geocode_city", "arguments": {"city": "Paris"}}},\n  {"id": "call_id_1", "type": "function", "function": {"name": "geocode_city", "arguments": {"city": "Moscow"}}},\n  {"id": "call_';
  const calls = [{ name: 'geocode_city', arguments: { city: 'Paris' } }, { name: 'geocode_city', arguments: { city: 'Moscow' } }];

  test('in a fence after words: the whole calls run, the cut one is a failure, all hidden', () => {
    const output = `Here are the calls:\n\n\`\`\`json\n${cut}`;
    expectReadAs(output, TOOLS, calls, 'Here are the calls:');
    expect(failuresOf(output)).toEqual(['cut_off']);
  });

  test('bare: the same', () => {
    expectReadAs(cut, TOOLS, calls, '');
    expect(failuresOf(cut)).toEqual(['cut_off']);
  });

  test('cut inside the first call: nothing runs', () => {
    expect(parseToolCalls('```json\n[{"name": "geocode_city", "arguments": {"city": "Par', TOOLS).calls).toEqual([]);
  });

  test('a cut list of data, not calls: no call', () => {
    expect(parseToolCalls('```json\n[{"city": "Paris"}, {"city": "Mos', TOOLS).calls).toEqual([]);
  });
});

describe('calls in bold or as headings (Llama 3.2 3B, Qwen2.5 in BFCL)', () => {
  test('every line a call in bold: a call each', () => {
    expectReadAs('**circle.calculate_area(radius=5)**\n**circle.calculate_circumference(diameter=10)**', TOOLS, [
      { name: 'circle.calculate_area', arguments: { radius: 5 } },
      { name: 'circle.calculate_circumference', arguments: { diameter: 10 } },
    ], '');
  });

  test('a call as a heading: the call', () => {
    expectReadAs('## circle.calculate_area(radius=5)', TOOLS, [{ name: 'circle.calculate_area', arguments: { radius: 5 } }], '');
  });

  test('bold words, a bold call with words after it, or a heading among prose: text', () => {
    expectNoCall('**Note:** the area is 78.5.', TOOLS);
    expectNoCall('**circle.calculate_area(radius=5)** gives the area.', TOOLS);
    expectNoCall('## circle.calculate_area(radius=5)\n\nThis function computes the area.', TOOLS);
  });
});

describe('Python lists', () => {
  test('several calls in one quoted string (Llama 3 8B): a call each', () => {
    expectReadAs("['circle.calculate_area(radius=5), circle.calculate_circumference(diameter=10)']", TOOLS, [
      { name: 'circle.calculate_area', arguments: { radius: 5 } },
      { name: 'circle.calculate_circumference', arguments: { diameter: 10 } },
    ], '');
  });

  test('a call, then quoted words (Qwen2.5 1.5B): the call runs, the rest is a failure', () => {
    const output = "[area_rectangle.calculate(length=7, breadth=3), 'area_circle.calculate', '5']";
    expectReadAs(output, TOOLS, [{ name: 'area_rectangle.calculate', arguments: { length: 7, breadth: 3 } }], '');
    expect(failuresOf(output)).toEqual(['unparsable']);
  });

  test('a list of quoted words only: no call', () => {
    expectNoCall("The names were ['area_circle.calculate', '5'].", TOOLS);
  });

  test("a ',' ending a call list's line goes with the call (gemma-7b-it)", () => {
    expectReadAs('[circle.calculate_area(radius=5)],\n\nThis computes the area.', TOOLS, [{ name: 'circle.calculate_area', arguments: { radius: 5 } }], 'This computes the area.');
  });

  test('a call list opening the reply that cannot be read, words below it: the call tried, hidden', () => {
    const output = '[process_order(order_data={order_id=1, name="John"})]\n{"status": "processing"}';
    expect(parseToolCalls(output, TOOLS).calls).toEqual([]);
    expect(failuresOf(output)).toEqual(['unparsable']);
    expectShown(output, '{"status": "processing"}');
  });
});

describe('a fenced call of an offered tool whose arguments cannot be read', () => {
  test('after a whole fenced call: the call runs, the other is a failure, both hidden', () => {
    const output = '```json\n{"type": "function", "function": {"name": "geocode_city", "arguments": {"city": "Paris"}}}\n```\n\n```json\n{"type": "function", "function": {"name": "area_rectangle.calculate", "arguments": "153"}}\n```';
    expectReadAs(output, TOOLS, [{ name: 'geocode_city', arguments: { city: 'Paris' } }], '');
    expect(failuresOf(output)).toEqual(['unparsable']);
  });

  test('fenced data naming no offered tool stays text', () => {
    expectNoCall('The record:\n\n```json\n{"name": "Paris", "arguments": "none"}\n```\n\nThat is all.', TOOLS);
  });
});

describe('"inputs" for the arguments (a JSON-mode pseudo-tool, llama3 in quarkus-langchain4j)', () => {
  test('the call', () => {
    expectReadAs('{"name": "__conversational_response", "inputs": {"response": "The amount is 11.1."}}', TOOLS, [{ name: '__conversational_response', arguments: { response: 'The amount is 11.1.' } }], '');
  });
});

describe('Gemma 4', () => {
  test('a bare call glued after its thought channel closes: the call, the thought hidden', () => {
    expectReadAs('<|channel>thought\nI need to read the file.\n<channel|>call:bash{command:<|"|>cat a.c<|"|>}', TOOLS, [{ name: 'bash', arguments: { command: 'cat a.c' } }], '');
  });

  test('a stray colon before call: inside its token', () => {
    expectReadAs('<|tool_call>:call:bash{command:<|"|>pytest<|"|>}', TOOLS, [{ name: 'bash', arguments: { command: 'pytest' } }], '');
  });

  test('call: inside a sentence stays text', () => {
    expectNoCall('Write call:bash{command:1} to run it.', TOOLS);
  });
});

describe('a <function= that names no function (Qwen3-Coder)', () => {
  test('prose about the tag is shown whole, streamed too', () => {
    expectNoCall('the tag <function=foo is documented here', TOOLS);
  });
});

describe("Qwen2.5-Coder's fill-in-the-middle tokens", () => {
  test('left at the end of a reply: hidden', () => {
    expectShown('Create a new workunit named "New".<|fim_suffix|><|fim_middle|>', 'Create a new workunit named "New".');
  });

  test('in code the user sees: kept', () => {
    expectNoCall('The token is written `<|fim_middle|>` in prompts.', TOOLS);
  });
});
