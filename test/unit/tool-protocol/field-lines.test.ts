/**
 * A reply that opens with an offered tool's name alone on its line and its arguments on the lines below, one
 * `key: value` or `key=value` each (Gemma 4 E2B, DeepSeek V4 run locally; three pending held-out outputs): where it
 * stops. Every key must be one the tool declares, none it requires may be missing, and the block ends at a blank
 * line or the reply's end; anywhere else, or with other lines in it, it is prose. Parser and stream filter agree in
 * every chunking.
 */
import { parseToolCalls } from '../../../src/background/llm/tool-protocol/parse';
import { expectNoCall, expectReadAs } from '../../support/stream-through';

const object = (properties: Record<string, unknown>, required: string[] = []) => ({ type: 'object', properties, required });
const TOOLS = [
  { name: 'file_read', parameters: object({ path: { type: 'string' }, start_line: { type: 'integer' }, end_line: { type: 'integer' } }, ['path']) },
  { name: 'say_i_dont_know', parameters: object({ reason: { type: 'string' } }, ['reason']) },
  { name: 'navigate', parameters: object({ url: { type: 'string' }, new_tab: { type: 'boolean' } }, ['url']) },
  'search',
];

describe('a tool name line, then its arguments one per line', () => {
  test('as the whole reply: the call, its values typed by the schema', () => {
    expectReadAs('file_read\npath: /src/main.py\nstart_line: 33\nend_line: 39', TOOLS, [{ name: 'file_read', arguments: { path: '/src/main.py', start_line: 33, end_line: 39 } }], '');
    expectReadAs('navigate\nurl=https://example.com/a?b=c\nnew_tab: true\n', TOOLS, [{ name: 'navigate', arguments: { url: 'https://example.com/a?b=c', new_tab: true } }], '');
  });

  test('text stays text: a value with a colon, a quoted value, digits for a string', () => {
    expectReadAs('say_i_dont_know\nreason: The page says: "no"', TOOLS, [{ name: 'say_i_dont_know', arguments: { reason: 'The page says: "no"' } }], '');
    expectReadAs('file_read\npath: "0123"', TOOLS, [{ name: 'file_read', arguments: { path: '0123' } }], '');
  });

  test('after reasoning, and with prose after a blank line: the call, and the prose shown', () => {
    expectReadAs('<think>Read it.</think>\nfile_read\npath=/a.py\n\nDone reading.', TOOLS, [{ name: 'file_read', arguments: { path: '/a.py' } }], 'Done reading.');
  });

  test('a value the schema cannot type stays as written, for the schema check before running it to refuse', () => {
    expect(parseToolCalls('file_read\npath: /a.py\nstart_line: thirty', TOOLS).calls).toEqual([{ name: 'file_read', arguments: { path: '/a.py', start_line: 'thirty' } }]);
  });
});

describe('where it is prose', () => {
  test.each([
    ['a key the tool does not declare', 'file_read\nfile: /a.py'],
    ['a key given twice', 'file_read\npath: /a.py\npath: /b.py'],
    ['a required key missing', 'file_read\nstart_line: 3'],
    ['a line of words inside the block', 'file_read\npath: /a.py\nThis reads the file.'],
    ['after words: an example the model shows', 'You would write:\nfile_read\npath: /a.py'],
    ['in a block quote', '> file_read\n> path: /a.py'],
    ['in a fence', '```\nfile_read\npath: /a.py\n```'],
    ['a tool offered without a schema', 'search\nquery: rice'],
    ['a name no tool has', 'read_file\npath: /a.py'],
    ['the name inside a sentence', 'file_read is the tool.\npath: /a.py'],
  ])('%s', (_what, text) => {
    expectNoCall(text, TOOLS);
  });
});
