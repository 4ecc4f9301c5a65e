/**
 * Where the fixes from the twenty-seventh held-out round stop: a tool input written as words for a single-input tool
 * (LangChain's ReAct, XML and JSON agents); a name alone and then an object that is no call (the call split in two);
 * a keyword given twice in a Python call; a Python call's one argument a dict holding tuples; GLM-4's name glued to the
 * sentence before it; arguments that cannot fit the tool's schema; `[name, arguments]` pairs; a call fence's label line
 * and a call fence holding no call; a harmony recipient whose name holds a blank; Gemma 4's token pair around no call
 * or closed by another template's tag; an empty wrapper after closed calls.
 */
import { parseToolCalls } from '../../../src/background/llm/tool-protocol/parse';
import { expectNoCall, expectReadAs, squash, streamThrough, CHUNK_SIZES } from '../../support/stream-through';

const object = (properties: Record<string, unknown>, required: string[] = []) => ({ type: 'object', properties, required });
const TOOLS = [
  { name: 'search', parameters: object({ query: { type: 'string' } }, ['query']) },
  { name: 'get_weather', parameters: object({ city: { type: 'string' }, unit: { type: 'string' } }, ['city']) },
  { name: 'move_file', parameters: object({ path: { type: 'string' }, destination: { type: 'string' } }, ['path', 'destination']) },
  { name: 'list_files', parameters: object({}) },
  { name: 'calculate_bmi', parameters: object({ height: { type: 'number' }, weight: { type: 'number' } }, ['height', 'weight']) },
  { name: 'calculate_fitness', parameters: object({ values: { type: 'array', items: { type: 'number' } } }, ['values']) },
  { name: 'create_event', parameters: object({ title: { type: 'string' }, attendees: { type: 'array', items: { type: 'string' } }, details: { type: 'object' } }, ['title']) },
  { name: 'kinematics.calculate_time', parameters: object({ velocity: { type: 'integer' }, distance: { type: 'integer' } }, ['velocity', 'distance']) },
  { name: 'uv_index', parameters: object({ location: { type: 'string' } }, ['location']) },
  { name: 'Web Search', parameters: object({ query: { type: 'string' } }, ['query']) },
];
const wrap = (json: string) => `<tool_call>\n${json}\n</tool_call>`;
const failuresOf = (text: string, tools = TOOLS) => parseToolCalls(text, tools).failures.map((f) => f.problem);

describe('a tool input written as words (LangChain)', () => {
  test("ReAct's Action Input for a single-input tool: its one parameter, the Thought line shown", () => {
    expectReadAs('Thought: I should look it up.\nAction: search\nAction Input: what is the temperature in SF?', TOOLS, [{ name: 'search', arguments: { query: 'what is the temperature in SF?' } }], 'Thought: I should look it up.');
  });

  test('quotes around the words go, and an invented Observation ends them', () => {
    expectReadAs('Action: search\nAction Input: "weather in Paris"\nObservation: sunny', TOOLS, [{ name: 'search', arguments: { query: 'weather in Paris' } }], '');
  });

  test('the XML agent: <tool>, then <tool_input> holding words', () => {
    expectReadAs('<tool>search</tool><tool_input>foo &amp; bar</tool_input>', TOOLS, [{ name: 'search', arguments: { query: 'foo & bar' } }], '');
  });

  test('the JSON agent: "action_input" holding words, in a fence', () => {
    expectReadAs('```\n{\n  "action": "search",\n  "action_input": "2+2"\n}\n```', TOOLS, [{ name: 'search', arguments: { query: '2+2' } }], '');
  });

  test('a tool with several parameters: which one the words fill is a guess, so no call runs', () => {
    expect(parseToolCalls('Action: get_weather\nAction Input: Paris', TOOLS).calls).toEqual([]);
    expect(failuresOf('Action: get_weather\nAction Input: Paris')).toEqual(['unparsable']);
  });

  test('words that open like JSON are broken JSON, not words: unparsable', () => {
    for (const input of ['{"query": }', '[1, 2']) {
      expect(parseToolCalls(`Action: search\nAction Input: ${input}`, TOOLS).calls).toEqual([]);
      expect(failuresOf(`Action: search\nAction Input: ${input}`)).toEqual(['unparsable']);
    }
  });

  test('OpenAI\'s "arguments" string is JSON only, and a bare "input" key may be the question echoed: neither is words for the tool', () => {
    expect(parseToolCalls('{"name": "search", "arguments": "weather"}', TOOLS).calls).toEqual([]);
    expect(parseToolCalls('{"input": "What is the version?", "name": "search"}', TOOLS).calls).toEqual([]);
  });
});

describe('a name alone, then an object that is no call (Qwen3-0.6B)', () => {
  test('the split call is unparsable and never runs without its arguments; the whole calls around it run', () => {
    const output = [wrap('{"name": "list_files"}'), wrap('{"name": "move_file"}\n,{"path": "a.csv", "destination": "b/"}'), wrap('{"name": "list_files"}')].join('\n');
    expectReadAs(output, TOOLS, [{ name: 'list_files', arguments: {} }, { name: 'list_files', arguments: {} }], '');
    expect(failuresOf(output)).toEqual(['unparsable']);
  });

  test('two whole calls one after another in one wrapper still run', () => {
    expectReadAs(wrap('{"name": "list_files"}\n{"name": "search", "arguments": {"query": "x"}}'), TOOLS, [{ name: 'list_files', arguments: {} }, { name: 'search', arguments: { query: 'x' } }], '');
  });
});

describe('Python calls', () => {
  test('a keyword given twice is a syntax error: no call runs', () => {
    const output = "[calculate_bmi(height=1.8, weight=80, weight=60)]";
    expect(parseToolCalls(output, TOOLS).calls).toEqual([]);
    expect(failuresOf(output)).toEqual(['unparsable']);
  });

  test("the arguments as one dict holding a tuple (gemma-7b-it): the dict, the tuple a list", () => {
    expectReadAs('[create_event({"title": "Standup", "attendees": ("a@x.org", "b@x.org")})]', TOOLS, [{ name: 'create_event', arguments: { title: 'Standup', attendees: ['a@x.org', 'b@x.org'] } }], '');
  });
});

describe("GLM-4's name glued to the sentence before it (its <|assistant|> token stripped)", () => {
  test('the name, then its arguments ending the reply: the call, the words shown', () => {
    expectReadAs('I will now make the API call.uv_index\n{"location": "Tokyo"}', TOOLS, [{ name: 'uv_index', arguments: { location: 'Tokyo' } }], 'I will now make the API call.');
  });

  test('a blank between the sentence and the name: no token was stripped there, it stays text', () => {
    expectNoCall('I will now make the API call. uv_index\n{"location": "Tokyo"}', TOOLS);
  });

  test('a name no tool has, or words after the arguments: text', () => {
    expectNoCall('See the docs.weather\n{"location": "Tokyo"}', TOOLS);
    expectNoCall('Done.uv_index\n{"location": "Tokyo"}\nThat is all.', TOOLS);
  });

  test('a dotted word in prose that begins like a tool is shown at once', () => {
    expectNoCall('Use e.g.uv or example.com/uv_in today.', TOOLS);
  });
});

describe("arguments that cannot fit the tool's schema", () => {
  test('objects where the schema asks for numbers (Llama 3.2 1B): unparsable, never run', () => {
    const output = "[calculate_bmi(height={'height': 6.0, 'units': 'feet'}, weight={'weight': 80, 'units': 'kilograms'})]";
    expect(parseToolCalls(output, TOOLS).calls).toEqual([]);
    expect(failuresOf(output)).toEqual(['unparsable']);
  });

  test('an object where the schema asks for a list of numbers: unparsable', () => {
    expect(failuresOf('[calculate_fitness(values={"A": 0.4, "B": 0.6})]')).toEqual(['unparsable']);
  });

  test('the schema copied as the arguments or as a value (Gemma 3 1B, Llama 3.2 1B): unparsable', () => {
    expect(failuresOf(wrap('{"name": "search", "arguments": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}}'))).toEqual(['unparsable']);
    expect(failuresOf(wrap('{"name": "create_event", "arguments": {"title": "Q3", "attendees": [{"type": "array", "items": {"type": "string"}, "description": "emails"}]}}'))).toEqual(['unparsable']);
  });

  test('values that fit stay calls: strings take anything, objects go where objects are asked, numbers are typed', () => {
    expectReadAs(wrap('{"name": "create_event", "arguments": {"title": {"text": "Q3"}, "details": {"room": 4}}}'), TOOLS, [{ name: 'create_event', arguments: { title: { text: 'Q3' }, details: { room: 4 } } }], '');
    expectReadAs('[calculate_bmi(height="1.8", weight=80)]', TOOLS, [{ name: 'calculate_bmi', arguments: { height: 1.8, weight: 80 } }], '');
  });

  test('arguments the tool does not declare are left to its own check, as written', () => {
    expectReadAs(wrap('{"name": "search", "arguments": {"qeury": "x"}}'), TOOLS, [{ name: 'search', arguments: { qeury: 'x' } }], '');
  });
});

describe('a list of [name, arguments] pairs', () => {
  test("Python tuples (mistral-tiny in BFCL): a call each", () => {
    expectReadAs("[('kinematics.calculate_time', {'velocity': 50, 'distance': 600}), ('kinematics.calculate_time', {'velocity': 400, 'distance': 1000})]", TOOLS, [
      { name: 'kinematics.calculate_time', arguments: { velocity: 50, distance: 600 } },
      { name: 'kinematics.calculate_time', arguments: { velocity: 400, distance: 1000 } },
    ], '');
  });

  test('JSON pairs (Qwen2.5): a call each', () => {
    expectReadAs('[["search", {"query": "a"}], ["list_files", {}]]', TOOLS, [{ name: 'search', arguments: { query: 'a' } }, { name: 'list_files', arguments: {} }], '');
  });

  test('pairs naming no offered tool, or a list of data pairs: no call', () => {
    expectNoCall("[('lookup', {'id': 1})]", TOOLS);
    expectNoCall('The scores were [["alice", {"points": 3}], ["bob", {"points": 5}]].', TOOLS);
  });
});

describe('call fences (Gemma 3)', () => {
  test('a label line opening the body: the call after it', () => {
    expectReadAs('```tool_code\nfunction_call\n{\n  "id": 1138,\n  "function": "search",\n  "parameters": {"query": "pr 1138"}\n}\n```', TOOLS, [{ name: 'search', arguments: { query: 'pr 1138' } }], '');
  });

  test('a function_call fence holding an object that is no call: unparsable, hidden', () => {
    const output = 'Let me look that up.\n\n```function_call\n{\n  "id": 1\n}\n```';
    expect(parseToolCalls(output, TOOLS).calls).toEqual([]);
    expect(failuresOf(output)).toEqual(['unparsable']);
    for (const size of CHUNK_SIZES) expect(squash(streamThrough(output, TOOLS, size))).toBe('Let me look that up.');
  });

  test('one naming a tool that is not offered, between code fences: unknown_tool, hidden; the code stays', () => {
    const output = 'Here it is.\n\n```function_call\n{"id": 1, "function": "write_function"}\n```\n\n```python\nx = 1\n```\n\n```function_call\n{"id": 2, "function": "write_spec"}\n```\n\nDone.';
    expect(failuresOf(output)).toEqual(['unknown_tool', 'unknown_tool']);
    const text = 'Here it is. ```python x = 1 ``` Done.';
    expect(squash(parseToolCalls(output, TOOLS).text)).toBe(text);
    for (const size of CHUNK_SIZES) expect(squash(streamThrough(output, TOOLS, size))).toBe(text);
  });

  test('a json fence showing data in prose stays text', () => {
    expectNoCall('The response looks like:\n\n```json\n{"id": 1}\n```\n\nThat is all.', TOOLS);
  });
});

describe('harmony', () => {
  test("a recipient whose name holds a blank (an LM Studio plugin's tool): the call", () => {
    expectReadAs('<|start|>assistant<|channel|>commentary to=functions.Web Search <|constrain|>json<|message|>{"query": "north xl"}<|call|>', TOOLS, [{ name: 'Web Search', arguments: { query: 'north xl' } }], '');
  });

  test('a recipient whose first word is no tool and the rest makes none: an unknown tool', () => {
    expect(failuresOf('<|start|>assistant<|channel|>commentary to=functions.Web Find <|constrain|>json<|message|>{"query": "x"}<|call|>')).toEqual(['unknown_tool']);
  });
});

describe("Gemma 4's token pair", () => {
  test('closed by another template tag: the call, the tag hidden with it', () => {
    expectReadAs('<|tool_call>call:get_weather{city:<|"|>NYC<|"|>}</tool_call>', TOOLS, [{ name: 'get_weather', arguments: { city: 'NYC' } }], '');
  });

  test('around no call: unparsable, hidden', () => {
    expect(failuresOf('<|tool_call>nonsense<tool_call|>')).toEqual(['unparsable']);
    expectReadAs('Checking.<|tool_call>nonsense<tool_call|>', TOOLS, [], 'Checking.');
  });
});

describe('an empty wrapper ending the reply', () => {
  test('after closed calls: the next call, cut off; the calls run', () => {
    const output = `${wrap('{"name": "list_files", "arguments": {}}')}\n<tool_call>\n`;
    expectReadAs(output, TOOLS, [{ name: 'list_files', arguments: {} }], '');
    expect(failuresOf(output)).toEqual(['cut_off']);
  });

  test("after a call left open: that call's closer written as an opener (Hermes 2 Pro), no failure", () => {
    expect(failuresOf('<tool_call>\n{"name": "list_files", "arguments": {}}\n<tool_call>')).toEqual([]);
  });
});
