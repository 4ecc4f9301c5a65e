/**
 * Where the fixes from the thirty-fourth held-out round stop: a chat client's logged call copied by the model
 * (`[Calling tool: name with arguments: {…}]`, or the log line alone before MiniMax's parameters); JSON written with
 * typographic quotes only; a call object one `}` short before words on the next line (MemGPT's Mistral 7B); a `type`
 * saying the object is a call; arguments split into an HTTP request's parts (`body`, `path_params`, `query_params`).
 */
import { parseToolCalls } from '../../../src/background/llm/tool-protocol/parse';
import { expectNoCall, expectReadAs, squash, streamThrough, CHUNK_SIZES } from '../../support/stream-through';

const object = (properties: Record<string, unknown>, required: string[] = []) => ({ type: 'object', properties, required });
const TOOLS = [
  { name: 'terminal', parameters: object({ command: { type: 'string' } }, ['command']) },
  { name: 'search_files', parameters: object({ pattern: { type: 'string' }, path: { type: 'string' } }, ['pattern']) },
  { name: 'send_message', parameters: object({ message: { type: 'string' }, inner_thought: { type: 'string' } }, ['message']) },
  { name: 'get_specialties', parameters: object({}) },
  { name: 'pick', parameters: object({ type: { type: 'string' } }, ['type']) },
  { name: 'generate_image', parameters: object({ prompt: { type: 'string' } }, ['prompt']) },
];
const shownIn = (text: string) => CHUNK_SIZES.map((size) => squash(streamThrough(text, TOOLS, size)));

describe("a chat client's logged call, copied by the model (MiniMax M2.7 in Hermes Agent)", () => {
  test('`[Calling tool: name with arguments: {…}]`, typographic quotes for all of its JSON: the call', () => {
    expectReadAs('[Calling tool: terminal with arguments: {“command”: “df -h || echo ‘none’”}]', TOOLS, [{ name: 'terminal', arguments: { command: 'df -h || echo ‘none’' } }], '');
    expectReadAs('[Calling tool: terminal with arguments: {"command": "ls"}]', TOOLS, [{ name: 'terminal', arguments: { command: 'ls' } }], '');
  });

  test("the log line alone, then MiniMax's parameters and closing tags: the call, nothing shown", () => {
    const text = '[Calling tool: search_files]\n<parameter name=“pattern”>tool_call</parameter>\n<parameter name=“path”>/home/me/ui</parameter>\n</invoke>\n</minimax:tool_call>';
    expectReadAs(text, TOOLS, [{ name: 'search_files', arguments: { pattern: 'tool_call', path: '/home/me/ui' } }], '');
  });

  test('naming no offered tool, or mentioned in a sentence, it is text', () => {
    expectNoCall('[Calling tool: rm_rf with arguments: {"path": "/"}]', TOOLS);
    expectNoCall('The log shows [Calling tool: terminal with arguments: {"command": "ls"}] twice.', TOOLS);
  });
});

describe('JSON with typographic quotes only', () => {
  test('in a call: read as its quotes; where plain quotes are used too, the typographic ones are text', () => {
    expectReadAs('{“name”: “terminal”, “arguments”: {“command”: “ls”}}', TOOLS, [{ name: 'terminal', arguments: { command: 'ls' } }], '');
    expectReadAs('{"name": "terminal", "arguments": {"command": "echo “hi”"}}', TOOLS, [{ name: 'terminal', arguments: { command: 'echo “hi”' } }], '');
  });
});

describe("a call object one `}` short, then words on the next line (MemGPT's Mistral 7B)", () => {
  test('closed where its members end: the call, the words after it shown', () => {
    const text = '{\n"function": "send_message",\n"params": {\n    "inner_thought": "Chatting.",\n    "message": "Hello!"\n}\nFUNCTION RETURN {"status": "OK"}';
    expectReadAs(text, TOOLS, [{ name: 'send_message', arguments: { inner_thought: 'Chatting.', message: 'Hello!' } }], 'FUNCTION RETURN {"status": "OK"}');
  });

  test('cut inside a value, or naming no offered tool, it is no call', () => {
    expect(parseToolCalls('{"function": "send_message", "params": {"message": "Hel', TOOLS).calls).toEqual([]);
    expectNoCall('{"function": "erase", "params": {"all": true}\nDone.', TOOLS);
  });
});

describe("a `type` saying the object is a call (an app's own envelope)", () => {
  test('no argument, unless the tool declares `type`', () => {
    expectReadAs('{"type": "call_function", "tool": "get_specialties"}', TOOLS, [{ name: 'get_specialties', arguments: {} }], '');
    expectReadAs('{"tool": "pick", "type": "tool_use"}', TOOLS, [{ name: 'pick', arguments: { type: 'tool_use' } }], '');
  });
});

describe("arguments split into an HTTP request's parts (Hermes 2 Pro given REST tools)", () => {
  test('`body` with empty `path_params` and `query_params`: their members are the arguments', () => {
    const text = '```json\n{\n  "name": "generate_image",\n  "body": {"prompt": "rain at night"},\n  "path_params": {},\n  "query_params": {}\n}\n```';
    expectReadAs(text, TOOLS, [{ name: 'generate_image', arguments: { prompt: 'rain at night' } }], '');
  });

  test('where the tool declares `body`, it is that argument', () => {
    const tools = [{ name: 'post', parameters: object({ body: { type: 'object' } }, ['body']) }];
    expect(parseToolCalls('{"name": "post", "body": {"a": 1}, "query_params": {}}', tools).calls).toEqual([{ name: 'post', arguments: { body: { a: 1 }, query_params: {} } }]);
  });
});

test('the stream filter shows none of these calls, in any chunking', () => {
  for (const text of ['[Calling tool: terminal with arguments: {"command": "ls"}]', '{"type": "call_function", "tool": "get_specialties"}']) {
    expect(shownIn(text)).toEqual(CHUNK_SIZES.map(() => ''));
  }
});
