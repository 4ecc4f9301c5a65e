/**
 * Where the fixes from the thirty-first held-out round stop: Meta CWM's `<tool: label>` blocks, the tool's name and its
 * input inside; DeepSeek's DSML with its bars doubled; a tool's name in bold on its line before the arguments; a whole
 * reply that is one call in inline code; Llama's `<function(name)` and `<function/name` tags; LangChain's XML agent
 * stopped at `</tool_input>`; the ReAct paper's `Action: Search[words]`; call lines of which one cannot be read.
 */
import { parseToolCalls } from '../../../src/background/llm/tool-protocol/parse';
import { expectNoCall, expectReadAs, squash, streamThrough, CHUNK_SIZES } from '../../support/stream-through';

const object = (properties: Record<string, unknown>, required: string[] = []) => ({ type: 'object', properties, required });
const TOOLS = [
  { name: 'terminal', parameters: object({ command: { type: 'string' } }, ['command']) },
  { name: 'bash', parameters: object({ command: { type: 'string' } }, ['command']) },
  { name: 'read_file', parameters: object({ path: { type: 'string' } }, ['path']) },
  { name: 'edit_file', parameters: object({ path: { type: 'string' }, old: { type: 'string' }, new: { type: 'string' } }, ['path', 'old', 'new']) },
  { name: 'list_files', parameters: object({}) },
  { name: 'Search', parameters: object({ tool_input: { type: 'string' } }, ['tool_input']) },
  { name: 'get_weather', parameters: object({ city: { type: 'string' }, metric: { type: 'string' } }, ['city']) },
];
const failuresOf = (text: string) => parseToolCalls(text, TOOLS).failures.map((f) => f.problem);
const shownIn = (text: string) => CHUNK_SIZES.map((size) => squash(streamThrough(text, TOOLS, size)));

describe("Meta CWM's <tool: label> blocks (vLLM's cwm parser)", () => {
  test("the label a kind, the body the tool's name then its input: the input is the tool's one parameter", () => {
    const command = 'find . -name "*.py" | xargs grep -n "def bulk_create"';
    expectReadAs(`<think>Let me search.</think>\n<tool: function>\nterminal ${command}\n</tool>\n`, TOOLS, [{ name: 'terminal', arguments: { command } }], '');
    expectReadAs(`I will look.\n<tool:function>\nterminal\nls -la\ncat README.md\n</tool>`, TOOLS, [{ name: 'terminal', arguments: { command: 'ls -la\ncat README.md' } }], 'I will look.');
  });

  test("the label an offered tool's name: the body is its input", () => {
    expectReadAs('<tool: bash>\nnpm test -- --watch=false\n</tool>', TOOLS, [{ name: 'bash', arguments: { command: 'npm test -- --watch=false' } }], '');
  });

  test('JSON input is the arguments; a tool taking none is called with none', () => {
    expectReadAs('<tool: function>\nedit_file {"path": "a.ts", "old": "x", "new": "y"}\n</tool>', TOOLS, [{ name: 'edit_file', arguments: { path: 'a.ts', old: 'x', new: 'y' } }], '');
    expectReadAs('Listing.\n<tool: list_files>\n</tool>', TOOLS, [{ name: 'list_files', arguments: {} }], 'Listing.');
  });

  test('words for a tool of several parameters cannot be placed: unreadable, hidden', () => {
    const text = 'Editing.\n<tool: function>\nedit_file a.ts x y\n</tool>';
    expect(parseToolCalls(text, TOOLS).calls).toEqual([]);
    expect(failuresOf(text)).toEqual(['unparsable']);
    expect(shownIn(text)).toEqual(CHUNK_SIZES.map(() => 'Editing.'));
  });

  test('a tool not offered is an unknown tool; a block the reply ended inside was cut off', () => {
    expect(failuresOf('<tool: function>\nrm -rf /\n</tool>')).toEqual(['unknown_tool']);
    const cut = 'Running.\n<tool: function>\nterminal git log --one';
    expect(parseToolCalls(cut, TOOLS).calls).toEqual([]);
    expect(failuresOf(cut)).toEqual(['cut_off']);
    expect(shownIn(cut)).toEqual(CHUNK_SIZES.map(() => 'Running.'));
  });

  test('the format quoted in code or named in a sentence is no call', () => {
    expectNoCall('CWM writes `<tool: function> terminal ls </tool>` for a command.', TOOLS);
    expectNoCall('The model answers like this:\n\n> <tool: bash>\n> ls\n> </tool>\n\nand the server runs it.', TOOLS);
    expectNoCall('Its tags look like <tool: function> and are closed by a tag, which you may ignore.', TOOLS);
  });
});

describe('DeepSeek DSML with its bars doubled (DeepSeek in Cline)', () => {
  test('the calls, on one line or on lines of their own', () => {
    const call = [{ name: 'read_file', arguments: { path: 'package.json' } }];
    expectReadAs('<｜｜DSML｜｜ calls> <｜｜DSML｜｜ invoke name="read_file"> <｜｜DSML｜｜ parameter name="path" string="true">package.json</｜｜DSML｜｜ parameter> </｜｜DSML｜｜ invoke> </｜｜DSML｜｜ calls>', TOOLS, call, '');
    expectReadAs('Reading.\n<||DSML||function_calls>\n<||DSML||invoke name="read_file">\n<||DSML||parameter name="path" string="true">package.json</||DSML||parameter>\n</||DSML||invoke>\n</||DSML||function_calls>', TOOLS, call, 'Reading.');
  });
});

describe("a tool's name in bold on its line, then its arguments (DeepSeek-R1 distills on Groq)", () => {
  test('the whole reply: the call, nothing shown', () => {
    expectReadAs('**read_file**\n\n{\n  "path": "notes.md"\n}', TOOLS, [{ name: 'read_file', arguments: { path: 'notes.md' } }], '');
  });

  test('a bold name that is no offered tool, or followed by words, is text', () => {
    expectNoCall('**delete_all**\n\n{"path": "notes.md"}', TOOLS);
    expectNoCall('**read_file**\n\nreads a file: give it a path.', TOOLS);
    expectNoCall('You could use **read_file**\n{"path": "notes.md"}', TOOLS);
  });
});

describe('a whole reply that is one call in inline code (MetaGPT-style prompts on OpenAI models)', () => {
  test('the call', () => {
    expectReadAs('`read_file(path="notes.md")`', TOOLS, [{ name: 'read_file', arguments: { path: 'notes.md' } }], '');
  });

  test('inline code beside words, or calling no offered tool, is an example', () => {
    expectNoCall('`read_file(path="notes.md")` reads the notes.', TOOLS);
    expectNoCall('Try `read_file(path="notes.md")`.', TOOLS);
    expectNoCall('`remove_file(path="notes.md")`', TOOLS);
  });
});

describe("Llama 3.3's function tags with the name in brackets or after a slash (Groq)", () => {
  test('each a call, a stray > or blank before the closing tag allowed', () => {
    expectReadAs('<function(terminal){"command": "grep -r x *"}</function>\n<function(terminal){"command": "rg y"}</function>', TOOLS, [
      { name: 'terminal', arguments: { command: 'grep -r x *' } },
      { name: 'terminal', arguments: { command: 'rg y' } },
    ], '');
    expectReadAs('<function(terminal){"command": "git show -p | grep V"}></function>', TOOLS, [{ name: 'terminal', arguments: { command: 'git show -p | grep V' } }], '');
    expectReadAs('<function/terminal {"command": "rg \\"class\\" src"} </function>\n<function/read_file {"path": "a.py"}</function>', TOOLS, [
      { name: 'terminal', arguments: { command: 'rg "class" src' } },
      { name: 'read_file', arguments: { path: 'a.py' } },
    ], '');
  });

  test('the tag named in a sentence is no call', () => {
    expectNoCall('Llama sometimes writes <function(name) instead of the proper tag.', TOOLS);
  });
});

describe("LangChain's XML agent, its reply stopped at </tool_input>", () => {
  test('the input written whole: the call', () => {
    expectReadAs(' <tool>Search</tool>\n<tool_input>what is LangChain', TOOLS, [{ name: 'Search', arguments: { tool_input: 'what is LangChain' } }], '');
  });

  test('JSON input the reply ended inside was cut off', () => {
    const cut = 'Looking.\n<tool>read_file</tool>\n<tool_input>{"path": "no';
    expect(parseToolCalls(cut, TOOLS).calls).toEqual([]);
    expect(failuresOf(cut)).toEqual(['cut_off']);
    expect(shownIn(cut)).toEqual(CHUNK_SIZES.map(() => 'Looking.'));
  });
});

describe("the ReAct paper's bracketed actions (LangChain's react_docstore on gpt-3.5-turbo-instruct)", () => {
  test('the words are the input; the thought shown', () => {
    const thought = 'Thought: I need to search David Chanoff.';
    expectReadAs(`\n${thought}\n\nAction: Search[David Chanoff]\n`, TOOLS, [{ name: 'Search', arguments: { tool_input: 'David Chanoff' } }], thought);
    expectReadAs('Action: Search["Milhouse"]', TOOLS, [{ name: 'Search', arguments: { tool_input: 'Milhouse' } }], '');
  });

  test("an action naming no offered tool (the paper's Finish) is text", () => {
    expectNoCall('Thought: done.\nAction: Finish[Richard Nixon]', TOOLS);
  });

  test('words in round brackets are the input without the closing bracket', () => {
    expect(parseToolCalls('Thought: hm\nAction: Search(Leonardo DiCaprio)', TOOLS).calls).toEqual([{ name: 'Search', arguments: { tool_input: 'Leonardo DiCaprio' } }]);
  });
});

describe('call lines of which one cannot be read (OLMo 3)', () => {
  test('the readable calls run; the other is a failure', () => {
    const text = "<function_calls>bad(x=b'z')\nget_weather(city='San Francisco', metric='celsius')</function_calls>";
    expectReadAs(text, TOOLS, [{ name: 'get_weather', arguments: { city: 'San Francisco', metric: 'celsius' } }], '');
    expect(failuresOf(text)).toEqual(['unknown_tool']);
    expect(failuresOf("[get_weather(city='SF'), read_file(path=b'x')]")).toEqual(['unparsable']);
  });
});
