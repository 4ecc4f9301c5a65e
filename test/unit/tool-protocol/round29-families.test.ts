/**
 * Where the fixes from the twenty-ninth held-out round stop: a `{"calls": [...]}` object; DSPy's ReAct fields; Langroid's
 * tool messages (a `request` key naming the tool, and `<tool><request>…</request>` with the arguments as elements beside
 * it); a call's own `id` beside its name where the tool declares none; a list of Python calls in bold; Python's `None`
 * where a schema allows null; `additionalProperties` typing an object's values.
 */
import { parseToolCalls } from '../../../src/background/llm/tool-protocol/parse';
import { expectNoCall, expectReadAs, squash, streamThrough, CHUNK_SIZES } from '../../support/stream-through';

const object = (properties: Record<string, unknown>, required: string[] = []) => ({ type: 'object', properties, required });
const TOOLS = [
  { name: 'add_list_item', parameters: object({ list: { type: 'string' }, item: { type: 'string' } }, ['list', 'item']) },
  { name: 'remove_alarm', parameters: object({ time: { type: 'string' }, date: { type: 'string' } }, ['time']) },
  { name: 'fetch_flight_info', parameters: object({ date: object({ year: { type: 'integer' }, month: { type: 'integer' } }), origin: { type: 'string' } }) },
  { name: 'finish', parameters: object({}) },
  { name: 'file_exists', parameters: object({ filename: { type: 'string' }, recurse: { type: 'boolean' } }, ['filename']) },
  { name: 'code_tool', parameters: object({ filepath: { type: 'string' }, version: { type: 'integer' }, code: { type: 'string' } }) },
  { name: 'contacts', parameters: object({ phones: { type: 'object', additionalProperties: { type: 'integer' } } }) },
  { name: 'get_current_time', parameters: object({}) },
  { name: 'click', parameters: object({ id: { type: 'integer' } }, ['id']) },
  { name: 'math_roots.quadratic', parameters: object({ a: { type: 'integer' }, b: { type: 'integer' }, c: { type: 'integer' } }) },
  { name: 'note', parameters: object({ text: { type: 'string' }, tag: { type: ['string', 'null'] } }) },
];
const failuresOf = (text: string) => parseToolCalls(text, TOOLS).failures.map((f) => f.problem);

describe('{"calls": [...]}: a structured-output contract (phi-4, Granite 4, Ministral 3B, Reka Flash 3)', () => {
  test('its calls, pretty-printed or on one line, hidden', () => {
    expectReadAs('{\n  "calls": [\n    {"name": "remove_alarm", "arguments": {"time": "07:00"}},\n    {"name": "remove_alarm", "arguments": {"time": "19:00"}}\n  ]\n}', TOOLS, [
      { name: 'remove_alarm', arguments: { time: '07:00' } },
      { name: 'remove_alarm', arguments: { time: '19:00' } },
    ], '');
    expectReadAs('{"calls": [{"name": "add_list_item", "arguments": {"list": "to-do", "item": "laundry"}}]}', TOOLS, [{ name: 'add_list_item', arguments: { list: 'to-do', item: 'laundry' } }], '');
  });

  test('an object with other keys beside its "calls", or "calls" that are no list: data, shown', () => {
    expectNoCall('{"calls": [{"name": "add_list_item", "arguments": {"list": "a", "item": "b"}}], "total": 1}', TOOLS);
    expectNoCall('{"calls": 3}', TOOLS);
  });

  test('a call of a tool not offered: a failure, hidden', () => {
    expect(failuresOf('{"calls": [{"name": "dial", "arguments": {"number": "112"}}]}')).toEqual(['unknown_tool']);
  });
});

describe("DSPy's ReAct fields (gpt-4o-mini and Llama 3.2 3B in DSPy's tutorials)", () => {
  const reply = (name: string, args: string) =>
    `[[ ## next_thought ## ]]\nI need the flights first.\n\n[[ ## next_tool_name ## ]]\n${name}\n\n[[ ## next_tool_args ## ]]\n${args}\n\n[[ ## completed ## ]]`;

  test('the call, the thought shown without its header', () => {
    expectReadAs(reply('fetch_flight_info', '{"date": {"year": 2025, "month": 9}, "origin": "SFO"}'), TOOLS, [{ name: 'fetch_flight_info', arguments: { date: { year: 2025, month: 9 }, origin: 'SFO' } }], 'I need the flights first.');
    expectReadAs(reply('finish', '{}'), TOOLS, [{ name: 'finish', arguments: {} }], 'I need the flights first.');
  });

  test('a tool not offered, or arguments that cannot be read: a failure, hidden', () => {
    expect(failuresOf(reply('book_hotel', '{"city": "Paris"}'))).toEqual(['unknown_tool']);
    expect(failuresOf(reply('finish', 'none needed'))).toEqual(['unparsable']);
    expect(squash(parseToolCalls(reply('finish', 'none needed'), TOOLS).text)).toBe('I need the flights first.');
  });

  test('the reply ended inside the arguments: cut off', () => {
    const cut = '[[ ## next_tool_name ## ]]\nfetch_flight_info\n\n[[ ## next_tool_args ## ]]\n{"origin": "SF';
    expect(parseToolCalls(cut, TOOLS).calls).toEqual([]);
    expect(failuresOf(cut)).toEqual(['cut_off']);
    for (const size of CHUNK_SIZES) expect({ size, shown: squash(streamThrough(cut, TOOLS, size)) }).toEqual({ size, shown: '' });
  });

  test("an answer's fields (reasoning, a result) stay as written: no call", () => {
    expectNoCall('[[ ## reasoning ## ]]\nThe flight is booked.\n\n[[ ## process_result ## ]]\nDone.\n\n[[ ## completed ## ]]', TOOLS);
  });

  test('a header quoted inside a sentence or in code is text', () => {
    expectNoCall('DSPy writes `[[ ## next_tool_name ## ]]` before the tool it picks.', TOOLS);
    expectNoCall('```\n[[ ## next_tool_name ## ]]\nfinish\n\n[[ ## next_tool_args ## ]]\n{}\n```', TOOLS);
  });
});

describe("Langroid's tool messages", () => {
  test('a JSON object whose "request" names the tool, on lines of its own between words: the call', () => {
    expectReadAs('Ok, thank you.\n{\n"request": "file_exists",\n"filename": "test.txt",\n"recurse": true\n}\nHope you can tell me!', TOOLS, [
      { name: 'file_exists', arguments: { filename: 'test.txt', recurse: true } },
    ], 'Ok, thank you. Hope you can tell me!');
  });

  test('"request" beside another key naming the call is an argument like any other', () => {
    const tools = [{ name: 'http', parameters: object({ request: { type: 'string' } }) }];
    expect(parseToolCalls('{"tool": "http", "request": "GET /"}', tools).calls).toEqual([{ name: 'http', arguments: { request: 'GET /' } }]);
  });

  test('a "request" naming no offered tool is data', () => {
    expectNoCall('{"request": "refund", "amount": 12}', TOOLS);
  });

  test('XML: the arguments as elements beside the name, typed by the schema, values trimmed; <code> an argument the tool declares', () => {
    expectReadAs('<tool>\n  <request>\n    code_tool\n  </request>\n  <filepath>\n    /path/to/file.py\n  </filepath>\n  <version>1</version>\n  <code>print(1)</code>\n</tool>', TOOLS, [
      { name: 'code_tool', arguments: { filepath: '/path/to/file.py', version: 1, code: 'print(1)' } },
    ], '');
  });

  test('XML: an element the tool does not declare beside the name: not read as its arguments', () => {
    expect(parseToolCalls('<tool>\n<request>code_tool</request>\n<colour>red</colour>\n</tool>', TOOLS).calls).toEqual([]);
  });

  test("XML: an object's values typed by additionalProperties", () => {
    expect(parseToolCalls('<tool>\n<request>contacts</request>\n<phones>\n<home>1234567890</home>\n<work>9876543210</work>\n</phones>\n</tool>', TOOLS).calls).toEqual([
      { name: 'contacts', arguments: { phones: { home: 1234567890, work: 9876543210 } } },
    ]);
    expect(parseToolCalls('{"name": "contacts", "arguments": {"phones": {"home": "12"}}}', TOOLS).calls).toEqual([{ name: 'contacts', arguments: { phones: { home: 12 } } }]);
  });
});

describe("a call's own id beside its name (Gemma 3 12B's function_call fences without parameters)", () => {
  test('no argument where the tool declares no id', () => {
    expectReadAs('```function_call\n{\n\t"id": "4",\n\t"function": "get_current_time"\n}\n```', TOOLS, [{ name: 'get_current_time', arguments: {} }], '');
  });

  test('an argument where the tool declares one', () => {
    expect(parseToolCalls('{"tool": "click", "id": 3}', TOOLS).calls).toEqual([{ name: 'click', arguments: { id: 3 } }]);
  });
});

describe('a list of Python calls in bold (Llama 3.2 3B in BFCL)', () => {
  test('the calls, the bold markers hidden with them', () => {
    expectReadAs('**[math_roots.quadratic(a=5, b=20, c=-25)]**', TOOLS, [{ name: 'math_roots.quadratic', arguments: { a: 5, b: 20, c: -25 } }], '');
  });

  test('a bold list among prose, or of a tool not offered: text', () => {
    expectNoCall('Try this:\n**[math_roots.quadratic(a=5, b=20, c=-25)]** and see.', TOOLS);
    expectNoCall('**[solve(a=5)]**', TOOLS);
  });
});

describe("Python's None in markup where the schema allows null (Step-3's steptml parameters)", () => {
  test('null; the word kept where only text is allowed', () => {
    const output = '<tool_call>\n<function=note>\n<parameter=text>None</parameter>\n<parameter=tag>None</parameter>\n</function>\n</tool_call>';
    expect(parseToolCalls(output, TOOLS).calls).toEqual([{ name: 'note', arguments: { text: 'None', tag: null } }]);
  });
});
