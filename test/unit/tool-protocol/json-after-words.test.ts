/**
 * A JSON call after the model's words on its line (`Hey, how are you? {"name": …}`), as Llama 3.x JSON
 * parsers read it (vLLM's, Dynamo's): a call when it ends the reply, prose when words follow it or the
 * words before it present an example. A Python call list there stays prose, as in SGLang's parser.
 */
import { parseToolCalls } from '../../../src/background/llm/tool-protocol/parse';
import { expectNoCall, expectReadAs } from '../../support/stream-through';

const TOOLS = [{ name: 'get_weather', parameters: { type: 'object', properties: { location: { type: 'string' }, unit: { type: 'string' } } } }];
const CALL = { name: 'get_weather', arguments: { location: 'Paris', unit: 'celsius' } };

describe('a JSON call ending the reply after words on its line', () => {
  test.each([
    ['name and parameters', 'Hey, how are you? {"name": "get_weather", "parameters": {"location": "Paris", "unit": "celsius"}}'],
    ['blanks inside the braces', 'Hey, how are you? { "name": "get_weather", "arguments": {"location": "Paris", "unit": "celsius" } }'],
    ['a JSON list of calls', 'Hey, how are you? [{"name": "get_weather", "arguments": {"location": "Paris", "unit": "celsius"}}]'],
    ["OpenAI's nested shape after a colon", 'Calling weather API: {"type": "function", "function": {"name": "get_weather", "parameters": {"location": "Paris", "unit": "celsius"}}}'],
    ['after a line of prose, with blanks and a newline after it', 'Sure.\nChecking now {"name": "get_weather", "arguments": {"location": "Paris", "unit": "celsius"}}  \n'],
  ])('%s: the call, hidden', (_name, text) => {
    const words = text.slice(0, text.search(/ [[{]/));
    expectReadAs(text, TOOLS, [CALL], words.replace(/\s+/g, ' ').trim());
  });
});

describe('JSON after words that is not a call', () => {
  test.each([
    ['words follow it', 'You could send {"name": "get_weather", "arguments": {"location": "Paris", "unit": "celsius"}} to the server.'],
    ['a line of prose follows it', 'The request was {"name": "get_weather", "arguments": {"location": "Paris", "unit": "celsius"}}\nIt failed.'],
    ['the words present an example', 'For example: {"name": "get_weather", "arguments": {"location": "Paris", "unit": "celsius"}}'],
    ['it names no offered tool', 'Hey, how are you? {"name": "book_flight", "arguments": {"to": "Paris"}}'],
    ['it is quoted in a block quote', '> The page says {"name": "get_weather", "arguments": {"location": "Paris", "unit": "celsius"}}'],
    ['it is inline code', 'Send `{"name": "get_weather", "arguments": {"location": "Paris"}}`'],
    ['a Python call list after a colon', "Here's a tool call: [get_weather(location='Paris', unit='celsius')]"],
  ])('%s: prose, shown as written', (_name, text) => {
    expectNoCall(text, TOOLS);
  });
});

test('only the value ending the reply is read: an earlier one on the line stays prose', () => {
  const text = 'Compare {"name": "get_weather", "arguments": {"location": "Rome"}} with {"name": "get_weather", "arguments": {"location": "Paris", "unit": "celsius"}}';
  expect(parseToolCalls(text, TOOLS).calls).toEqual([CALL]);
});
