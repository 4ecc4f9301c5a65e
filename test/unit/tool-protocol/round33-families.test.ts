/**
 * Where the fixes from the thirty-third held-out round stop: `$` copied from LangChain's `$JSON_BLOB` before a call;
 * `{"function_calls": […]}` (Granite 3 on watsonx); `<function name="…">` with `<parameter name="…" string="…">` inside a
 * wrapper (Seed 2.0) and with CDATA values holding closing tags (MiniCPM5); Kimi K2 with every token stripped
 * (`functions.name:0{…}`) and with its arguments encoded twice; Glaive's single-quoted arguments holding an apostrophe;
 * Command R's fence closed right after its JSON; `<function=name` missing its `>`; wrappers' closing tags written again
 * after a call; Hunyuan's `<answer>` tags; Gemma 4's call body with neither wrapper nor `call:`; ReAct's `Action:` on the
 * line before a call's JSON.
 */
import { parseToolCalls } from '../../../src/background/llm/tool-protocol/parse';
import { expectNoCall, expectReadAs, squash, streamThrough, CHUNK_SIZES } from '../../support/stream-through';

const object = (properties: Record<string, unknown>, required: string[] = []) => ({ type: 'object', properties, required });
const TOOLS = [
  { name: 'get_weather', parameters: object({ location: { type: 'string' } }, ['location']) },
  { name: 'exec', parameters: object({ action: { type: 'string' }, command: { type: 'string' } }, ['command']) },
  { name: 'inject', parameters: object({ keys: { type: 'array', items: { type: 'string' } } }, ['keys']) },
  { name: 'write_file', parameters: object({ content: { type: 'string' } }, ['content']) },
  { name: 'LS', parameters: object({ path: { type: 'string' } }, ['path']) },
  { name: 'TodoWrite', parameters: object({ todos: { type: 'array', items: { type: 'object' } } }, ['todos']) },
  { name: 'create_reminder', parameters: object({ text: { type: 'string' }, date: { type: 'string' } }, ['text']) },
  { name: 'python_interpreter', parameters: object({ code: { type: 'string' } }, ['code']) },
  { name: 'line_count', parameters: object({ text: { type: 'string' } }, ['text']) },
];
const failuresOf = (text: string) => parseToolCalls(text, TOOLS).failures.map((f) => f.problem);
const shownIn = (text: string) => CHUNK_SIZES.map((size) => squash(streamThrough(text, TOOLS, size)));
const weather = (location: string) => ({ name: 'get_weather', arguments: { location } });

describe("`$` before a call's JSON, copied from LangChain's `$JSON_BLOB` (Llama 3.2 3B)", () => {
  const blob = '${\n  "action": "get_weather",\n  "action_input": {"location": "London"}\n}';

  test('after a thought, and opening the reply: the call, the `$` hidden with it', () => {
    expectReadAs(`Thought: I need the weather.\n\n${blob}`, TOOLS, [weather('London')], 'Thought: I need the weather.');
    expectReadAs(blob, TOOLS, [weather('London')], '');
  });

  test('a `$` in prose, or before JSON that is no call, stays text', () => {
    expectNoCall('It costs $5 and ${"a": 1} is a template.', TOOLS);
    expectNoCall('Prices:\n${"total": 5}', TOOLS);
  });
});

describe("ReAct's `Action:` on the line before a call's JSON (SmolLM2 1.7B, Llama 3.2 3B)", () => {
  test('the label goes with the call, and the turn ends at it: the made-up observation is not shown', () => {
    expectReadAs('Thought: I will get the time.\n\nAction:\n{\n  "action": "get_weather",\n  "action_input": {"location": "Oslo"}\n}\n\nObservation: sunny', TOOLS, [weather('Oslo')], 'Thought: I will get the time.');
  });

  test('`Action:` before JSON that is no call stays text', () => {
    expectNoCall('Action:\n{"mood": "calm"}\nDone.', TOOLS);
  });
});

describe('`{"function_calls": […]}` as the only key (Granite 3 8B on watsonx)', () => {
  test('in Python-dict quotes: the calls', () => {
    expectReadAs("{'function_calls': [{'name': 'get_weather', 'arguments': {'location': 'San Francisco, US'}}]}", TOOLS, [weather('San Francisco, US')], '');
  });

  test('beside other keys it is data', () => {
    expectNoCall('The log: {"function_calls": [{"name": "get_weather", "arguments": {"location": "X"}}], "count": 1} as recorded.', TOOLS);
  });
});

describe('`<function name="…">` with parameter elements', () => {
  test("Seed 2.0's `<parameter name=… string=…>` in `<seed:tool_call>`: text as written, JSON where string is false", () => {
    const text = '<seed:tool_call>\n  <function name="exec">\n    <parameter name="action" string="true">run</parameter>\n    <parameter name="command" string="true">ls -la /tmp/虎嗅网/</parameter>\n  </function>\n</seed:tool_call>';
    expectReadAs(text, TOOLS, [{ name: 'exec', arguments: { action: 'run', command: 'ls -la /tmp/虎嗅网/' } }], '');
    expectReadAs('<seed:tool_call><function name="inject"><parameter name="keys" string="false">["a", "b"]</parameter></function></seed:tool_call>', TOOLS, [
      { name: 'inject', arguments: { keys: ['a', 'b'] } },
    ], '');
  });

  test("MiniCPM5's CDATA value holding `</param>` and `</function>`: the whole value, in every chunking", () => {
    expectReadAs('<function name="write_file"><param name="content"><![CDATA[example </param> and </function> end]]></param></function>', TOOLS, [
      { name: 'write_file', arguments: { content: 'example </param> and </function> end' } },
    ], '');
  });

  test('cut inside a value: a failure, nothing shown', () => {
    const cut = '<function name="write_file"><param name="content"><![CDATA[half of it';
    expect(failuresOf(cut)).toEqual(['cut_off']);
    expect(shownIn(cut)).toEqual(CHUNK_SIZES.map(() => ''));
  });

  test('inside a sentence it is a quotation', () => {
    expectNoCall('Before <function name="write_file"><param name="content">x</param></function> after', TOOLS);
  });
});

describe('Kimi K2', () => {
  test('every token stripped, glued to the sentence before it: the call, the words kept', () => {
    expectReadAs('Let me list the directory.functions.LS:1{"path": "/Users/me/project"}', TOOLS, [{ name: 'LS', arguments: { path: '/Users/me/project' } }], 'Let me list the directory.');
    expectReadAs('Listing. functions.LS:0{"path": "a"}functions.LS:1{"path": "b"}', TOOLS, [
      { name: 'LS', arguments: { path: 'a' } },
      { name: 'LS', arguments: { path: 'b' } },
    ], 'Listing.');
  });

  test('cut inside its arguments: a failure, the words kept', () => {
    const cut = 'Let me help you with that. functions.LS:1{"path": "/us';
    expect(failuresOf(cut)).toEqual(['cut_off']);
    expect(shownIn(cut)).toEqual(CHUNK_SIZES.map(() => 'Let me help you with that.'));
  });

  test('with words after it on its line, inside a word, or naming no offered tool, it is text', () => {
    expectNoCall('Kimi writes functions.LS:1{"path": "a"} when it calls.', TOOLS);
    expectNoCall('myfunctions.LS:1{"path": "a"}', TOOLS);
    expectNoCall('Done. functions.rm:1{"path": "/"}', TOOLS);
  });

  test('arguments encoded twice, a JSON string holding the object (SGLang): the object', () => {
    const text = '<|tool_calls_section_begin|><|tool_call_begin|>functions.TodoWrite:1<|tool_call_argument_begin|>"{\\"todos\\": [{\\"id\\": \\"a\\", \\"status\\": \\"done\\"}]}"<|tool_call_end|><|tool_calls_section_end|>';
    expectReadAs(text, TOOLS, [{ name: 'TodoWrite', arguments: { todos: [{ id: 'a', status: 'done' }] } }], '');
  });
});

describe("Glaive's arguments in single quotes holding an apostrophe", () => {
  test('the quotes end after the object, not at the apostrophe', () => {
    const text = `<functioncall> {"name": "create_reminder", "arguments": '{"text": "Doctor's appointment", "date": "2022-09-15"}'} <|endoftext|>`;
    expectReadAs(text, TOOLS, [{ name: 'create_reminder', arguments: { text: "Doctor's appointment", date: '2022-09-15' } }], '');
  });
});

describe("Command R's multi-hop action, its fence closed right after the JSON", () => {
  test('`Action: ```json` then the list, ending `]```` on its line: the call', () => {
    const text = 'Reflection: I will plot it.\nAction: ```json\n[\n    {\n        "tool_name": "python_interpreter",\n        "parameters": {"code": "print(1)"}\n    }\n]```';
    expectReadAs(text, TOOLS, [{ name: 'python_interpreter', arguments: { code: 'print(1)' } }], 'Reflection: I will plot it.');
  });
});

describe('`<function=name` with its `>` missing at the end of its line (a Zyphra model)', () => {
  test('the call, the value as written', () => {
    const text = '<zyphra_tool_call>\n<function=line_count\n<parameter=text\n>red\ngreen\nblue\n</parameter>\n</function>\n</zyphra_tool_call>';
    expectReadAs(text, TOOLS, [{ name: 'line_count', arguments: { text: 'red\ngreen\nblue' } }], '');
  });
});

describe("wrappers' closing tags written again after calls (StableLM 2 fine-tunes)", () => {
  const call = (location: string) => `<tool_call>\n{'arguments': {'location': '${location}'}, 'name': 'get_weather'}\n</tool_call>`;

  test('`</tools>` after the calls, `</tool_call>` twice: hidden with them', () => {
    expectReadAs(`${call('Hue')}\n${call('Vinh')}\n</tools>\n<|endoftext|>`, TOOLS, [weather('Hue'), weather('Vinh')], '');
    expectReadAs(`${call('Hue')}\n</tool_call>\n<|endoftext|>`, TOOLS, [weather('Hue')], '');
  });

  test('with words after it on its line, or with no call before it, a closing tag is text', () => {
    expectReadAs(`${call('Hue')}\n</tools> are closed.`, TOOLS, [weather('Hue')], '</tools> are closed.');
    expectNoCall('Close it with\n</tool_call>\nas shown.', TOOLS);
  });
});

describe("Hunyuan's `<answer>` after its reasoning", () => {
  test('the tags are template markup: only the answer is shown', () => {
    expectReadAs('<think>\n...\n</think>\n<answer>\n<tool_calls>[{"name": "get_weather", "arguments": {"location": "Shenzhen"}}]</tool_calls>\n</answer>', TOOLS, [weather('Shenzhen')], '');
    expectReadAs('<think>\nshort\n</think>\n<answer>It is sunny.</answer>', TOOLS, [], 'It is sunny.');
  });

  test('without reasoning before it, or inside the text, `<answer>` is what the model wrote', () => {
    expectNoCall('Wrap it in <answer> tags.', TOOLS);
    expectNoCall('<answer>42', TOOLS);
  });
});

describe("Gemma 4's call body with neither its wrapper nor `call:` (quantized E2B and E4B)", () => {
  test("an offered tool's: the call, its string token read", () => {
    expectReadAs('line_count{text:<|"|>red\ngreen\nblue<|"|>}', TOOLS, [{ name: 'line_count', arguments: { text: 'red\ngreen\nblue' } }], '');
  });

  test('opening the reply and naming no offered tool: an unknown tool, not shown', () => {
    const text = 'line_ount{textc:<|"|>red\ngreen<|"|>}';
    expect(failuresOf(text)).toEqual(['unknown_tool']);
    expect(shownIn(text)).toEqual(CHUNK_SIZES.map(() => ''));
  });

  test('without the string token, or after words, an unknown name is text', () => {
    expectNoCall('line_ountc{text: "one"}', TOOLS);
    expectNoCall('It printed\nline_ount{textc:<|"|>red<|"|>}', TOOLS);
  });
});
