/**
 * GLM's `<arg_value>` tags hug the value: blanks and line breaks inside them belong to it. A
 * string-typed value is kept exactly as written (code keeps its indentation and last newline);
 * the schema still reads a number from a number-typed one.
 */
import { parseToolCalls } from '../../../src/background/llm/tool-protocol/parse';

const WRITE = { name: 'write_file', parameters: { type: 'object', properties: { content: { type: 'string' }, line: { type: 'integer' } } } };

describe('GLM argument values', () => {
  it('keeps a string value exactly as written, indentation, entities and newlines included', () => {
    const output = '<tool_call>write_file<arg_key>content</arg_key><arg_value>\n    if a &lt; b:\n        pass\n\n</arg_value><arg_key>line</arg_key><arg_value> 12 </arg_value></tool_call>';
    expect(parseToolCalls(output, [WRITE]).calls).toEqual([{ name: 'write_file', arguments: { content: '\n    if a &lt; b:\n        pass\n\n', line: 12 } }]);
  });

  it('keeps a one-line value with blanks around it unchanged', () => {
    const output = '<tool_call>write_file<arg_key>content</arg_key><arg_value>  x = 1 </arg_value></tool_call>';
    expect(parseToolCalls(output, [WRITE]).calls).toEqual([{ name: 'write_file', arguments: { content: '  x = 1 ' } }]);
  });
});
