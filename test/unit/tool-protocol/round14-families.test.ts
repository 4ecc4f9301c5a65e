/**
 * Where the shapes added from the fourteenth held-out round stop: the JSON call written as XML inside a
 * wrapper (`<name>` and `<arguments>` elements), Qwen3.5's and GLM-5.1's calls whose template markup was
 * cut around the name, LFM2's list with its words glued after it, small Gemma models' `key: value` calls,
 * names written in another case style, and the failures small models' broken calls now give.
 */
import { parseToolCalls } from '../../../src/background/llm/tool-protocol/parse';
import { CHUNK_SIZES, expectNoCall, expectReadAs, squash, streamThrough } from '../../support/stream-through';

const TOOLS = [
  { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' }, forecast: { type: 'boolean' } } } },
  { name: 'web_fetch', parameters: { type: 'object', properties: { url: { type: 'string' } } } },
  { name: 'search_files', parameters: { type: 'object', properties: { pattern: { type: 'string' } } } },
];

const expectRead = (text: string, calls: unknown[], shown: string) => expectReadAs(text, TOOLS, calls, shown);
const weather = (args: Record<string, unknown>) => ({ name: 'get_weather', arguments: args });

/** The parser's failures for `text`, and the filter shows nothing of it in any chunking. */
function expectFailure(text: string, problem: string) {
  const result = parseToolCalls(text, TOOLS);
  expect({ calls: result.calls, problems: result.failures.map((f) => f.problem) }).toEqual({ calls: [], problems: [problem] });
  for (const size of CHUNK_SIZES) expect({ size, shown: squash(streamThrough(text, TOOLS, size)) }).toEqual({ size, shown: squash(result.text) });
}

describe('a call written as XML elements inside its wrapper', () => {
  test.each([
    ['arguments as elements, typed by the schema', '<tool_call>\n  <name>get_weather</name>\n  <arguments>\n    <city>Tokyo</city>\n    <days>3</days>\n    <forecast>true</forecast>\n  </arguments>\n</tool_call>', weather({ city: 'Tokyo', days: 3, forecast: true })],
    ['empty arguments', '<tool_call><name>get_weather</name><arguments></arguments></tool_call>', weather({})],
    ['no arguments element', '<tool_call>\n<name>get_weather</name>\n</tool_call>', weather({})],
    ['upper-case wrapper tags', '<TOOL_CALL>\n<name>get_weather</name>\n<arguments><city>Oslo</city></arguments>\n</TOOL_CALL>', weather({ city: 'Oslo' })],
    ['JSON inside the arguments element', '<tool_call>\n<name>get_weather</name>\n<arguments>{"city": "Oslo"}</arguments>\n</tool_call>', weather({ city: 'Oslo' })],
  ])('%s: the call, hidden', (_name, text, call) => {
    expectRead(text, [call], '');
  });

  test('between two sentences: the call, and the sentences shown', () => {
    expectRead('Let me check.\n<tool_call>\n<name>get_weather</name>\n<arguments><city>Rome</city></arguments>\n</tool_call>\nHere it is.', [weather({ city: 'Rome' })], 'Let me check. Here it is.');
  });

  test('a name never closed is an unparsable call', () => {
    expectFailure('<tool_call>\n<name>get_weather\n<arguments><incomplete\n</tool_call>', 'unparsable');
  });
});

describe('calls whose template markup was cut around the name', () => {
  test.each([
    ["Qwen3.5: the name and '>', then parameter blocks", '<tool_call>get_weather>\n<parameter=city>\nOslo\n</parameter>\n<parameter=days>\n2</parameter>\n</function></tool_call>', [weather({ city: 'Oslo', days: 2 })]],
    ["Qwen3.5: the name and '>', then JSON under an 'args' key", '<tool_call>get_weather>{"args": {"city": "Oslo", "days": 2}}</tool_call>', [weather({ city: 'Oslo', days: 2 })]],
    ['the name glued to JSON under an args key', '<tool_call>get_weather{"args": {"city": "Oslo"}}</tool_call>', [weather({ city: 'Oslo' })]],
    ["GLM-5.1: the name and '}', JSON, its value's closing tag", '<tool_call>get_weather}{"city": "Oslo"}</arg_value>', [weather({ city: 'Oslo' })]],
    ['GLM-5.1: three such calls chained with arrows', '<tool_call>get_weather}{"city": "A"}</arg_value>→<tool_call>get_weather}{"city": "B"}</arg_value>→<tool_call>get_weather}{"city": "C"}</arg_value>', [weather({ city: 'A' }), weather({ city: 'B' }), weather({ city: 'C' })]],
  ])('%s: the calls, hidden', (_name, text, calls) => {
    expectRead(text, calls, '');
  });

  test('an args key the tool declares is kept as its argument', () => {
    const tools = [{ name: 'run', parameters: { type: 'object', properties: { args: { type: 'object' } } } }];
    expect(parseToolCalls('<tool_call>run{"args": {"x": 1}}</tool_call>', tools).calls).toEqual([{ name: 'run', arguments: { args: { x: 1 } } }]);
  });
});

describe("LFM2's list with its call tokens stripped", () => {
  test("the model's words glued right after the list: the call, and the words shown", () => {
    expectRead('[get_weather(city="Antwerp")]Fetching the weather for Antwerp.', [weather({ city: 'Antwerp' })], 'Fetching the weather for Antwerp.');
  });

  test('two calls in the list', () => {
    expectRead('[search_files(pattern="*.py"), get_weather(city="Paris")]Searching and checking.', [{ name: 'search_files', arguments: { pattern: '*.py' } }, weather({ city: 'Paris' })], 'Searching and checking.');
  });

  test('with a blank before the words, the list is quoted: prose', () => {
    expectNoCall('[get_weather(city="Antwerp")] is how you would ask.', TOOLS);
  });
});

describe('Python calls as small models write them', () => {
  test.each([
    ["`key: value` with a bare word, in a wrapper", '<tool_call>get_weather(city: Antwerp)</tool_call>', [weather({ city: 'Antwerp' })]],
    ["`key: 'value'` in a ```tool_call fence", "```tool_call\nsearch_files(pattern: '*.py')\n```", [{ name: 'search_files', arguments: { pattern: '*.py' } }]],
    ['a bare word for a string', 'get_weather(city=Antwerp, days=2)', [weather({ city: 'Antwerp', days: 2 })]],
    ['calls separated by commas, the whole reply', "get_weather(city='A'), get_weather(city='B')", [weather({ city: 'A' }), weather({ city: 'B' })]],
    ['the reply cut inside the closing tag', '<tool_call>search_files(pattern: "train to Bruges")</tool_\n', [{ name: 'search_files', arguments: { pattern: 'train to Bruges' } }]],
  ])('%s: the calls, hidden', (_name, text, calls) => {
    expectRead(text, calls, '');
  });

  test('Python literals stay literals: None is null', () => {
    expect(parseToolCalls('get_weather(city=None)', TOOLS).calls).toEqual([weather({ city: null })]);
  });

  test('words that are not one bare word stay unreadable', () => {
    expect(parseToolCalls('get_weather(city: the big one)', TOOLS).calls).toEqual([]);
  });
});

describe('names and tokens', () => {
  test('a name in another case style is the offered tool (WebFetch for web_fetch), hidden as it streams', () => {
    expectRead('Let me fetch it.\nWebFetch{"url": "https://example.com"}', [{ name: 'web_fetch', arguments: { url: 'https://example.com' } }], 'Let me fetch it.');
  });

  test('two tools that differ only by their separators are not guessed between', () => {
    expect(parseToolCalls('WebFetch{"url": "x"}', ['web_fetch', 'webfetch_']).calls).toEqual([]);
  });

  test('an end-of-turn token after a call fence ends the turn', () => {
    expectRead('```json\n{"name": "get_weather", "arguments": {"city": "Oslo"}}\n```<|im_end|>', [weather({ city: 'Oslo' })], '');
  });

  test('a lone <|im_start|> is dropped by the parser and the filter, a word after it kept whole', () => {
    expectRead('Hello.\n<|im_start|>\nassist me <|im_start|>assistant\nDone.', [], 'Hello. assist me Done.');
  });

  test('a JSON call with a semicolon after it is the call, hidden with it', () => {
    expectRead('{"name": "get_weather", "params": {"city": "Oslo"}};', [weather({ city: 'Oslo' })], '');
  });

  test('<no_tool_call> is the model saying it calls nothing: text, and no failure', () => {
    const result = expectNoCall('Which city?\n\n<no_tool_call>', TOOLS);
    expect(result.text).toContain('<no_tool_call>');
  });
});

describe('prose that presents an example', () => {
  test('"would be" inside a sentence does not make the call after it an example', () => {
    const text = 'An indoor meeting would be preferable in this weather.\n\n<tool_call>{"name": "get_weather", "arguments": {"city": "Oslo"}}</tool_call>\n\nI checked the weather.';
    expectRead(text, [weather({ city: 'Oslo' })], 'An indoor meeting would be preferable in this weather. I checked the weather.');
  });

  test('"the call would be:" right before it does, unless the reply ends with it', () => {
    expectNoCall('The call would be:\n\n<tool_call>{"name": "get_weather", "arguments": {"city": "Oslo"}}</tool_call>\n\nShall I run it?', TOOLS);
  });
});

describe('failed calls that now reach the repair turn', () => {
  test.each([
    ['a ```tool_call fence with JSON that cannot be read', '```tool_call\n{"tool": "search_files", "arguments": {bad}}\n```', 'unparsable'],
    ['a ```tool_call fence the reply ended in', '```tool_call\n{"tool": "search_files", "arguments": {', 'cut_off'],
    ['a fenced JSON call, the whole reply, naming no offered tool', '```json\n{"name": "Check the weather", "arguments": {"city": "Oslo"}}\n```', 'unknown_tool'],
    ["a list of calls under a 'params' key naming no offered tool", '[{"name": "integrate", "params": {"lower": 1}}]', 'unknown_tool'],
  ])('%s: %s', (_name, text, problem) => {
    expectFailure(text, problem);
  });
});

test("the name in its element, then GLM's argument pairs (fifteenth round): the call, hidden", () => {
  expectRead('<tool_call><tool_name>get_weather</tool_name><arg_key>city</arg_key><arg_value>Oslo</arg_value></tool_call>', [weather({ city: 'Oslo' })], '');
});
