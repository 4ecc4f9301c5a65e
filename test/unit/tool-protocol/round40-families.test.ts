/**
 * Where the fixes from the fortieth held-out round stop: calls' JSON in one-line fences back to back (Hammer 2.1); Gemma
 * bodies missing a comma after a closed string, strings in `<|>`, bare values holding commas; Llama 3.1's built-in
 * `name.call(…)` without its python tag, and its next header glued after the call with its tokens stripped; Python's
 * `**{…}` keyword splat and triple-quoted strings (in a ```tool_code fence whose string holds a fence's marker); a
 * fine-tune's own call token (`<|tool_code|>`); the `output` key of Hermes Function-Calling's calls; AutoGPT's step
 * object (`thoughts` beside a `command`); Python calls the reply ended inside after a whole value (a stop sequence took
 * their `)`); a tool-named tag whose body is words, for a tool that takes one input (CodeAct); a parameter's value
 * quoting the wrapper's tags, the reply ending inside it; a ReAct action naming a tool the model made up. Parser and
 * stream filter agree in every chunking.
 */
import { parseToolCalls } from '../../../src/background/llm/tool-protocol/parse';
import { expectNoCall, expectReadAs, squash, streamThrough } from '../../support/stream-through';

const object = (properties: Record<string, unknown>, required: string[] = []) => ({ type: 'object', properties, required });
const TOOLS = [
  { name: 'brightness', parameters: object({ level: { type: 'integer' } }, ['level']) },
  { name: 'move', parameters: object({ command: { type: 'string' }, angle: { type: 'number' } }, ['command']) },
  { name: 'get_weather', parameters: object({ location: { type: 'string' }, unit: { type: 'string' } }, ['location']) },
  { name: 'brave_search', parameters: object({ query: { type: 'string' } }, ['query']) },
  { name: 'edit_file', parameters: object({ target_file: { type: 'string' }, code_edit: { type: 'string' } }, ['target_file']) },
  { name: 'delete_file', parameters: object({ target_file: { type: 'string' } }, ['target_file']) },
  { name: 'get_city', parameters: object({}) },
  { name: 'log', parameters: object({ output: { type: 'string' } }, ['output']) },
  { name: 'goto', parameters: object({ url: { type: 'string' } }, ['url']) },
  { name: 'execute_bash', parameters: object({ command: { type: 'string' } }, ['command']) },
];
const read = (text: string) => {
  const r = parseToolCalls(text, TOOLS);
  return { calls: r.calls, failures: r.failures.map((f) => f.problem) };
};

describe("calls' JSON in fences on one line", () => {
  test('a list as the whole reply, and an empty list glued after it: the calls', () => {
    expectReadAs('```[{"name": "brightness", "arguments": {"level": 100}}]```', TOOLS, [{ name: 'brightness', arguments: { level: 100 } }], '');
    expectReadAs('```[{"name": "brightness", "arguments": {"level": 100}}]``````[]```', TOOLS, [{ name: 'brightness', arguments: { level: 100 } }], '');
    expectReadAs('```json {"name": "brightness", "arguments": {"level": 5}}``` ```[{"name": "get_city", "arguments": {}}]```', TOOLS, [
      { name: 'brightness', arguments: { level: 5 } },
      { name: 'get_city', arguments: {} },
    ], '');
  });

  test('after words, with words after, or only empty lists: prose', () => {
    expectNoCall('Send this: ```[{"name": "brightness", "arguments": {"level": 1}}]```', TOOLS);
    expectNoCall('```[{"name": "brightness", "arguments": {"level": 1}}]``` is the format.', TOOLS);
    expectNoCall('```[]``````[]```', TOOLS);
  });
});

describe('Gemma bodies', () => {
  test('no comma after a value its string token closed: the next key starts the next argument', () => {
    expectReadAs('I will look.\ncall:move{command:<|"|>slowlook<|"|>angle:135}', TOOLS, [{ name: 'move', arguments: { command: 'slowlook', angle: 135 } }], 'I will look.');
  });

  test('strings in `<|>` tokens', () => {
    expectReadAs('call:move{command:<|>look<|>angle:45}', TOOLS, [{ name: 'move', arguments: { command: 'look', angle: 45 } }], '');
  });

  test('a bare value holding commas no key follows: the value', () => {
    expectReadAs('<|tool_call>call:get_weather{location:New York, NY,unit:celsius}<tool_call|>', TOOLS, [{ name: 'get_weather', arguments: { location: 'New York, NY', unit: 'celsius' } }], '');
  });

  test("a list's bare items stay apart; a body that is still malformed is a failed call", () => {
    expect(read('<|tool_call>call:get_weather{location:[Paris, Rome]}<tool_call|>').calls).toEqual([{ name: 'get_weather', arguments: { location: ['Paris', 'Rome'] } }]);
    expect(read('<|tool_call>call:get_weather{location:<|"|>Paris<|"|> <|"|>Rome<|"|>}<tool_call|>')).toEqual({ calls: [], failures: ['unparsable'] });
  });
});

describe("Llama 3.1's built-in tools without the python tag", () => {
  test('`name.call(…)` of an offered tool, as the reply or ending it', () => {
    expectReadAs('brave_search.call(query="weather in Menlo Park")', TOOLS, [{ name: 'brave_search', arguments: { query: 'weather in Menlo Park' } }], '');
    expectReadAs('I will search.\nbrave_search.call(query="x")', TOOLS, [{ name: 'brave_search', arguments: { query: 'x' } }], 'I will search.');
  });

  test('the next header glued after it with its tokens stripped goes with the call; the answer after it is shown', () => {
    expectReadAs('brave_search.call(query="weather")assistant\n\nI could not find the weather.', TOOLS, [{ name: 'brave_search', arguments: { query: 'weather' } }], 'I could not find the weather.');
    expectReadAs('<tool_call>{"name": "get_city", "arguments": {}}</tool_call>assistant\nParis.', TOOLS, [{ name: 'get_city', arguments: {} }], 'Paris.');
  });

  test('the word elsewhere is prose: not glued, a longer word, or no call before it', () => {
    expectNoCall('brave_search.call(query="x")assistants\n\nDone.', TOOLS);
    expectNoCall('Ask the assistant\nabout it.', TOOLS);
    expectNoCall('Write `brave_search.call(query="x")` to search.', TOOLS);
  });
});

describe('Python keyword splats', () => {
  test('`**{…}` gives its entries as arguments, alone or beside keywords', () => {
    expectReadAs('<|tool_code|>\nget_weather(**{"location": "Oslo"})\nget_weather(unit="C", **{"location": "Rome"})<|end|>', TOOLS, [
      { name: 'get_weather', arguments: { location: 'Oslo' } },
      { name: 'get_weather', arguments: { location: 'Rome', unit: 'C' } },
    ], '');
  });

  test('a key given twice, or a splat of something else: the call cannot be read', () => {
    expect(read('get_weather(location="a", **{"location": "b"})')).toEqual({ calls: [], failures: ['unparsable'] });
    expect(read('get_weather(**["location"])')).toEqual({ calls: [], failures: ['unparsable'] });
  });
});

describe('a call token no template names', () => {
  test('named as holding calls, opening the reply before Python calls, with or without an end token', () => {
    expectReadAs('<|tool_code|>\nget_city()\nbrightness(level=3)', TOOLS, [
      { name: 'get_city', arguments: {} },
      { name: 'brightness', arguments: { level: 3 } },
    ], '');
  });

  test('inside a sentence, or a token that ends or names something else: prose', () => {
    expectNoCall('The model writes <|tool_code|> before get_city() when it calls.', TOOLS);
    expectNoCall('<|code_end|>\nget_city is a tool.', TOOLS);
    expectNoCall('<|tool_code|>\nThe weather is fine.', TOOLS);
  });
});

describe('triple-quoted strings', () => {
  test("in a ```tool_code fence: the string whole, a fence's marker and quotes in it its own", () => {
    const reply = "I will write the plan.\n\n```tool_code\nprint(default_api.edit_file(target_file='plan.md', code_edit='''\\\n# Plan\n```\ntree/\n```\nIt's \"done\"\n'''))\nprint(default_api.delete_file(target_file='old.md'))\n```";
    expectReadAs(reply, TOOLS, [
      { name: 'edit_file', arguments: { target_file: 'plan.md', code_edit: '# Plan\n```\ntree/\n```\nIt\'s "done"\n' } },
      { name: 'delete_file', arguments: { target_file: 'old.md' } },
    ], 'I will write the plan.');
  });

  test('double triple quotes, and escapes as Python reads them', () => {
    expect(read('edit_file(target_file="a", code_edit="""line\\tone\\nline two""")').calls).toEqual([{ name: 'edit_file', arguments: { target_file: 'a', code_edit: 'line\tone\nline two' } }]);
  });

  test('outside a Python fence, a marker line ends the fence as always', () => {
    const reply = "```text\nedit_file(target_file='a', code_edit='''\n```\n\nThat was the start of it.";
    expect(read(reply).calls).toEqual([]);
    expect(parseToolCalls(reply, TOOLS).text).toContain('That was the start of it.');
  });
});

describe("the `output` key of Hermes Function-Calling's calls", () => {
  test('is the name of the result, not an argument, where the tool declares none so named', () => {
    expectReadAs('<function_calls>\n[{"name": "get_city", "output": "city"}]\n</function_calls>', TOOLS, [{ name: 'get_city', arguments: {} }], '');
    expect(read('<function_calls>\n[{"name": "log", "output": "x"}]\n</function_calls>').calls).toEqual([{ name: 'log', arguments: { output: 'x' } }]);
  });
});

describe("AutoGPT's step object", () => {
  const step = (command: string) => `{\n  "thoughts": {"text": "I need the weather.", "plan": "- look it up", "speak": "Looking it up."},\n  "command": ${command}\n}`;

  test('the command beside the thoughts is the call', () => {
    expectReadAs(step('{"name": "get_weather", "args": {"location": "Oslo"}}'), TOOLS, [{ name: 'get_weather', arguments: { location: 'Oslo' } }], '');
  });

  test('an empty command, a command naming no tool, or other keys beside it: no call', () => {
    expectNoCall(step('{"name": "", "args": {}}'), TOOLS);
    expect(read(step('{"name": "fly", "args": {}}')).calls).toEqual([]);
    expectNoCall('{"status": "ok", "command": {"name": "get_weather", "args": {"location": "Oslo"}}}', TOOLS);
  });
});

describe('Python calls the reply ended inside', () => {
  test('after a whole string or bracket (and a comma): closed, as a stop sequence that took the `)` leaves them', () => {
    expectReadAs('I will open the page.\n\n```\ngoto("http://localhost:8000"\n', TOOLS, [{ name: 'goto', arguments: { url: 'http://localhost:8000' } }], 'I will open the page.');
    expectReadAs('Opening it.\ngoto(url="https://example.com",', TOOLS, [{ name: 'goto', arguments: { url: 'https://example.com' } }], 'Opening it.');
    expect(read('get_weather({"location": "Oslo"').calls).toEqual([{ name: 'get_weather', arguments: { location: 'Oslo' } }]);
  });

  test('inside a string, after a bare word or number, or after `=`: cut off, never completed', () => {
    expect(read('goto(url="http://local')).toEqual({ calls: [], failures: ['cut_off'] });
    expect(read('brightness(level=10')).toEqual({ calls: [], failures: ['cut_off'] });
    expect(read('goto(url=')).toEqual({ calls: [], failures: ['cut_off'] });
  });

  test('in a fence that closes, or with words after it: not the reply cut off', () => {
    expect(read('```\ngoto("http://localhost:8000"\n```').calls).toEqual([]);
    expect(read('goto("http://localhost:8000"\nThen I will read it.').calls).toEqual([]);
  });
});

describe('a tool-named tag holding words', () => {
  test('for a tool that takes one input: that input', () => {
    expectReadAs('Let me check.\n\n<execute_bash>\ngit status\n</execute_bash>', TOOLS, [{ name: 'execute_bash', arguments: { command: 'git status' } }], 'Let me check.');
  });

  test('never closed, the words on the lines below to the end of the reply: cut off, for the repair turn', () => {
    expect(read('Let me check.\n\n<execute_bash>\ngit status\n')).toEqual({ calls: [], failures: ['cut_off'] });
  });

  test('for a tool that takes several inputs, in a sentence, or words after the tag on its line: prose', () => {
    expectNoCall('<get_weather>Oslo</get_weather>', TOOLS);
    expectNoCall('Write <execute_bash>ls</execute_bash> to list files.', TOOLS);
    expectNoCall('Use it:\n<execute_bash> is the tag for commands.', TOOLS);
  });
});

describe("a parameter's value quoting the wrapper's tags", () => {
  const TOOLS_WRITE = [{ name: 'write', parameters: object({ path: { type: 'string' }, content: { type: 'string' } }, ['path', 'content']) }];
  const head = '<tool_call>\n<function=write>\n<parameter=path>\n/a.md\n</parameter>\n<parameter=content>\n';

  test('the reply ending inside the value after the quoted tags: cut off, never a call on part of the value', () => {
    const r = parseToolCalls(`${head}- Qwen format (\`<tool_call>...</tool_call>`, TOOLS_WRITE);
    expect({ calls: r.calls, failures: r.failures.map((f) => f.problem) }).toEqual({ calls: [], failures: ['cut_off'] });
  });

  test('the value closed after them: the call, the tags in its value', () => {
    expectReadAs(`${head}Use \`<tool_call>…</tool_call>\` here.\n</parameter>\n</function>\n</tool_call>`, TOOLS_WRITE, [{ name: 'write', arguments: { path: '/a.md', content: 'Use `<tool_call>…</tool_call>` here.' } }], '');
  });

  test('closers missing but the wrapper closed on a line of its own: the call, as before', () => {
    expectReadAs(`${head}Hello\n</tool_call>`, TOOLS_WRITE, [{ name: 'write', arguments: { path: '/a.md', content: 'Hello' } }], '');
  });
});

describe("a fence's marker glued to words before a call's JSON", () => {
  test('is no inline code, whether or not a line break ends the reply: the call, as the stream filter reads it', () => {
    const call = [{ name: 'get_weather', arguments: { location: 'Oslo' } }];
    expectReadAs('Sure: ```json\n{"name": "get_weather", "arguments": {"location": "Oslo"}}\n```', TOOLS, call, 'Sure: ```json ```');
    expectReadAs('Sure: ```json\n{"name": "get_weather", "arguments": {"location": "Oslo"}}\n```\n', TOOLS, call, 'Sure: ```json ```');
  });

  test('single backticks over lines are inline code, and the call in them an example', () => {
    expectNoCall('Write `\n{"name": "get_weather", "arguments": {"location": "Oslo"}}\n` to call it.', TOOLS);
  });
});

describe('a ReAct action naming a tool the model made up', () => {
  const failureOf = (text: string) => {
    const r = parseToolCalls(text, TOOLS);
    return { calls: r.calls, failures: r.failures.map((f) => [f.problem, f.name]) };
  };

  test('a few words naming no offered tool, an input below: an unknown tool, the step hidden', () => {
    expect(failureOf(' I need to look up the answer\nAction: Look up\nAction Input: Capital of Norway')).toEqual({ calls: [], failures: [['unknown_tool', 'Look up']] });
    expectNoCall('Notes:\nAction: review the contract\nBob will do it.', TOOLS);
    for (const size of [1, 3, 7, 10_000]) {
      expect(squash(streamThrough(' I need to look up the answer\nAction: Look up\nAction Input: Capital of Norway', TOOLS, size))).toBe('I need to look up the answer');
    }
  });

  test('words saying no tool is called, or a sentence: no failure', () => {
    expect(failureOf('Thought: done\nAction: Final Answer\nAction Input: 42').failures).toEqual([]);
    expect(failureOf('Action: No action needed\nAction Input: none').failures).toEqual([]);
    expect(failureOf('Action: Prepare to make a GET request to the API.\nAction Input: the URL').failures).toEqual([]);
  });
});
