/**
 * Where the fixes from the thirtieth held-out round stop: ReAct actions written as calls (`Action: f("x")`); a ReAct step
 * fenced whole; an empty `Action Input` for a tool that takes none; words input ending at an invented tool result;
 * Qwen3-Coder parameter values keeping a code line's indentation; arguments in a list of their own; Solar Open 2's and
 * PLaMo 3's special-token calls; Command A's reasoning closed by `<|END_THINKING|>` alone.
 */
import { parseToolCalls } from '../../../src/background/llm/tool-protocol/parse';
import { expectNoCall, expectReadAs, squash, streamThrough, CHUNK_SIZES } from '../../support/stream-through';

const object = (properties: Record<string, unknown>, required: string[] = []) => ({ type: 'object', properties, required });
const TOOLS = [
  { name: 'search_flights', parameters: object({ origin: { type: 'string' }, destination: { type: 'string' }, date: { type: 'string' } }, ['origin', 'destination']) },
  { name: 'get_weather', parameters: object({ location: { type: 'string' } }, ['location']) },
  { name: 'get_current_time', parameters: object({}) },
  { name: 'calculator', parameters: object({ expression: { type: 'string' } }, ['expression']) },
  { name: 'str_replace_editor', parameters: object({ command: { type: 'string' }, old_str: { type: 'string' }, new_str: { type: 'string' } }, ['command']) },
  { name: 'search', parameters: object({ query: { type: 'string' }, max_results: { type: 'integer' } }, ['query']) },
];
const failuresOf = (text: string) => parseToolCalls(text, TOOLS).failures.map((f) => f.problem);
const shownIn = (text: string) => CHUNK_SIZES.map((size) => squash(streamThrough(text, TOOLS, size)));

describe('ReAct actions written as calls (gpt-4o-mini, Llama 3.3, Gemini 2.5 Flash, Qwen3-Coder in agent labs)', () => {
  const thought = 'Thought: I will look for flights.';

  test('positional, keyword and JSON arguments: the call, the thought shown', () => {
    const calls = [{ name: 'search_flights', arguments: { origin: 'HAN', destination: 'SGN', date: '2026-04-10' } }];
    expectReadAs(`${thought}\nAction: search_flights("HAN", "SGN", "2026-04-10")`, TOOLS, calls, thought);
    expectReadAs(`${thought}\nAction: search_flights(origin="HAN", destination="SGN", date="2026-04-10")\n`, TOOLS, calls, thought);
    expectReadAs(`${thought}\nAction: search_flights({"origin": "HAN", "destination": "SGN", "date": "2026-04-10"})`, TOOLS, calls, thought);
  });

  test('the turn ends at the action: an invented observation and answer after it are hidden, later actions not run', () => {
    expectReadAs(`${thought}\nAction: get_weather("SGN")\nObservation: 31°C\nAction: get_weather("HAN")\nFinal Answer: hot`, TOOLS, [{ name: 'get_weather', arguments: { location: 'SGN' } }], thought);
  });

  test('actions back to back are a call each', () => {
    expect(parseToolCalls('Action: get_weather("SGN")\nAction: get_current_time()', TOOLS).calls).toEqual([
      { name: 'get_weather', arguments: { location: 'SGN' } },
      { name: 'get_current_time', arguments: {} },
    ]);
  });

  test('an action naming no offered tool, or a call in a sentence, is text', () => {
    expectNoCall('Thought: hm\nAction: book_hotel("Hue")', TOOLS);
    expectNoCall('The agent writes Action: get_weather("SGN") when it needs the weather.', TOOLS);
  });

  test('brackets the reply ended inside: cut off, hidden', () => {
    const cut = `${thought}\nAction: search_flights("HAN", "SG`;
    expect(parseToolCalls(cut, TOOLS).calls).toEqual([]);
    expect(failuresOf(cut)).toEqual(['cut_off']);
    expect(shownIn(cut)).toEqual(CHUNK_SIZES.map(() => thought));
  });
});

describe('a ReAct step fenced whole, opening the reply (crewAI with gpt-4o-mini and gpt-4.1-mini)', () => {
  const step = 'Thought: I need the weather.\nAction: get_weather\nAction Input: {"location": "Hue"}';
  const call = [{ name: 'get_weather', arguments: { location: 'Hue' } }];

  test('closed or never closed: the call, the thought shown without the fence', () => {
    expectReadAs(`\`\`\`\n${step}\n\`\`\``, TOOLS, call, 'Thought: I need the weather.');
    expectReadAs(`\`\`\`\n${step}\nObservation: 20°C`, TOOLS, call, 'Thought: I need the weather.');
  });

  test('a fenced step after words presenting it, or a fenced final answer, stays text', () => {
    expectNoCall(`The format looks like this:\n\n\`\`\`\n${step}\n\`\`\``, TOOLS);
    expectNoCall('```\nThought: I now know the final answer\nFinal Answer: 42\n```', TOOLS);
  });
});

describe('ReAct inputs', () => {
  test('an empty input for a tool that takes none: a call without arguments; for one that needs some: a failure', () => {
    expectReadAs('Thought: time?\nAction: get_current_time\nAction Input: ""', TOOLS, [{ name: 'get_current_time', arguments: {} }], 'Thought: time?');
    expect(failuresOf('Action: calculator\nAction Input: ""')).toEqual(['unparsable']);
  });

  test('words input ends where an invented tool result begins (Gemma 3 12B)', () => {
    expect(parseToolCalls('Action: calculator\nAction Input: 345 + 45\nTool Result: Result: 390\n\nFinal Answer: 390', TOOLS).calls).toEqual([
      { name: 'calculator', arguments: { expression: '345 + 45' } },
    ]);
  });
});

describe("Qwen3-Coder parameter values on lines of their own (OpenHands' str_replace in SWE-smith trajectories)", () => {
  test("a code line's indentation is kept when the closing tag starts its line", () => {
    const output = '<function=str_replace_editor>\n<parameter=command>str_replace</parameter>\n<parameter=old_str>\n        if x:\n</parameter>\n<parameter=new_str>\n        if y:\n</parameter>\n</function>';
    expect(parseToolCalls(output, TOOLS).calls).toEqual([{ name: 'str_replace_editor', arguments: { command: 'str_replace', old_str: '        if x:', new_str: '        if y:' } }]);
  });

  test('markup indented whole: the indentation is layout', () => {
    const output = '<tool_call>\n    <function=get_weather>\n    <parameter=location>\n    Hue\n    </parameter>\n    </function>\n</tool_call>';
    expect(parseToolCalls(output, TOOLS).calls).toEqual([{ name: 'get_weather', arguments: { location: 'Hue' } }]);
  });
});

describe('arguments in a list of their own (Llama 3.2 3B on Ollama)', () => {
  test('one object in the list: the arguments', () => {
    expect(parseToolCalls('{"name": "get_weather", "parameters": [{"location": "Tokyo"}]}', TOOLS).calls).toEqual([{ name: 'get_weather', arguments: { location: 'Tokyo' } }]);
  });

  test('several: no arguments to run', () => {
    expect(parseToolCalls('{"name": "get_weather", "parameters": [{"location": "Tokyo"}, {"location": "Hue"}]}', TOOLS).calls).toEqual([]);
  });
});

describe("Solar Open 2's and PLaMo 3's special-token calls (vLLM's parser tests)", () => {
  test('Solar Open 2: the call, its values typed by the schema, wherever it stands', () => {
    expectReadAs(
      'Let me check.<|tool_call:start|>search\n<|tool_arg:start|>query<|tool_arg:value|>vLLM tutorial<|tool_arg:end|>\n<|tool_arg:start|>max_results<|tool_arg:value|>5<|tool_arg:end|>\n<|tool_call:end|> Done.',
      TOOLS,
      [{ name: 'search', arguments: { query: 'vLLM tutorial', max_results: 5 } }],
      'Let me check. Done.',
    );
  });

  test('Solar Open 2: the reply ended inside a value: cut off, hidden', () => {
    const cut = 'Let me check.<|tool_call:start|>search\n<|tool_arg:start|>query<|tool_arg:value|>Seo';
    expect(failuresOf(cut)).toEqual(['cut_off']);
    expect(shownIn(cut)).toEqual(CHUNK_SIZES.map(() => 'Let me check.'));
  });

  test('PLaMo 3: the call, the turn token after it hidden', () => {
    expectReadAs(
      'Checking the weather.<|plamo:begin_tool_requests:plamo|><|plamo:begin_tool_request:plamo|><|plamo:begin_tool_name:plamo|>get_weather<|plamo:end_tool_name:plamo|><|plamo:begin_tool_arguments:plamo|><|plamo:constrain|>json<|plamo:msg|>{"location": "Tokyo"}<|plamo:end_tool_arguments:plamo|><|plamo:end_tool_request:plamo|><|plamo:end_tool_requests:plamo|><|plamo:tag|>',
      TOOLS,
      [{ name: 'get_weather', arguments: { location: 'Tokyo' } }],
      'Checking the weather.',
    );
  });

  test('the tokens named in prose or code are text', () => {
    expectNoCall('Solar marks a call with `<|tool_call:start|>`.', TOOLS);
  });
});

describe("Command A's reasoning, its opening token in the template", () => {
  test('what stands before <|END_THINKING|> is reasoning: hidden', () => {
    const output = 'plan the call<|END_THINKING|><|START_ACTION|>[{"tool_call_id": "0", "tool_name": "get_current_time", "parameters": {}}]<|END_ACTION|>';
    expectReadAs(output, TOOLS, [{ name: 'get_current_time', arguments: {} }], '');
  });
});
