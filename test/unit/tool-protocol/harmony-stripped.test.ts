/**
 * GPT-OSS's harmony call when the server stripped its special tokens (LM Studio, llama.cpp builds that
 * print the raw text): `commentary to=functions.name json{…}`, glued to the role or to the analysis
 * before it, and the `json` constraint glued to the name (`to=functions.shelljson`).
 */
import { parseToolCalls } from '../../../src/background/llm/tool-protocol/parse';
import { expectReadAs } from '../../support/stream-through';

const TOOLS = [
  { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
  { name: 'shell', parameters: { type: 'object', properties: { cmd: { type: 'string' } } } },
];
const paris = { name: 'get_weather', arguments: { city: 'Paris' } };

describe('a harmony call whose tokens the server stripped', () => {
  test.each([
    ['alone', 'commentary to=functions.get_weather json{"city":"Paris"}', [paris], ''],
    ['glued to the role after the words before it', 'I will look it up.assistantcommentary to=functions.get_weather json{"city":"Paris"}', [paris], 'I will look it up.'],
    ['after the words and a blank', 'I will look it up. commentary to=functions.get_weather json{"city":"Paris"}', [paris], 'I will look it up.'],
    ['with the constraint token kept', 'commentary to=functions.get_weather <|constrain|>json{"city":"Paris"}', [paris], ''],
    ['json glued to the name', 'commentary to=functions.shelljson{"cmd":"ls"}', [{ name: 'shell', arguments: { cmd: 'ls' } }], ''],
    ['two calls, the second glued to the role', 'commentary to=functions.get_weather json{"city":"Paris"}assistantcommentary to=functions.shell json{"cmd":"ls"}', [paris, { name: 'shell', arguments: { cmd: 'ls' } }], ''],
  ])('%s: the call, hidden', (_name, text, calls, shown) => {
    expectReadAs(text, TOOLS, calls, shown);
  });

  test('json glued to the name of a tool that has it: the tool as offered', () => {
    const tools = [{ name: 'to_json', parameters: { type: 'object', properties: { value: { type: 'string' } } } }, { name: 'to_', parameters: {} }];
    expect(parseToolCalls('commentary to=functions.to_json json{"value":"x"}', tools).calls).toEqual([{ name: 'to_json', arguments: { value: 'x' } }]);
  });

  test('arguments cut off: a cut_off failure, no call', () => {
    const result = parseToolCalls('commentary to=functions.get_weather json{"city":"Par', TOOLS);
    expect(result.calls).toEqual([]);
    expect(result.failures.map((f) => [f.problem, f.name])).toEqual([['cut_off', 'get_weather']]);
  });

  test.each([
    ['inside a word', 'The recommentary to=functions.get_weather json{"city":"Paris"} is odd.'],
    ['quoted as code', 'Harmony writes `commentary to=functions.get_weather json{"city":"Paris"}` for a call.'],
    ['a recipient that is no function', 'commentary to=browser.search json{"query":"x"}'],
    ['the word in prose', 'The commentary to the match was long.'],
  ])('%s: prose, shown as written', (_name, text) => {
    expectReadAs(text, TOOLS, [], text);
  });
});
