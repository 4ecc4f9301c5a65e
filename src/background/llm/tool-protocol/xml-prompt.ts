/**
 * The tool catalogue for models without native tool calling, written into the system prompt.
 * We ask for the Hermes form, `<tool_call>{"name": …, "arguments": {…}}</tool_call>`: it is the
 * form most open models were trained on (Qwen, Hermes, many Llama fine-tunes), it is JSON inside
 * (so arguments keep their types), and its tags cannot be confused with page HTML. The parser
 * accepts many other forms too, for models that answer in their own.
 */
import { formatToolCall } from './xml-history';

export interface JsonSchemaProperty {
  type?: string | string[];
  description?: string;
  enum?: readonly unknown[];
  items?: JsonSchemaProperty;
  default?: unknown;
}

export interface JsonSchemaObject {
  type?: 'object' | string;
  properties?: Record<string, JsonSchemaProperty>;
  required?: readonly string[];
}

export interface CatalogueTool {
  name: string;
  description: string;
  parameters: JsonSchemaObject;
}

function typeOf(p: JsonSchemaProperty): string {
  if (p.enum) return p.enum.map((v) => JSON.stringify(v)).join(' | ');
  const t = Array.isArray(p.type) ? p.type.filter((x) => x !== 'null').join(' | ') : p.type;
  return t === 'array' && p.items ? `array of ${typeOf(p.items)}` : t ?? 'any';
}

/** A plausible value for the example call, from the schema. */
function exampleValue(name: string, p: JsonSchemaProperty): unknown {
  if (p.enum?.length) return p.enum[0];
  const t = Array.isArray(p.type) ? p.type[0] : p.type;
  if (t === 'integer' || t === 'number') return 1;
  if (t === 'boolean') return true;
  if (t === 'array') return [];
  if (t === 'object') return {};
  if (/url/i.test(name)) return 'https://example.com';
  if (/key/i.test(name)) return 'Enter';
  return `<${name}>`;
}

function exampleCall(tool: CatalogueTool): string {
  const props = tool.parameters.properties ?? {};
  const required = new Set(tool.parameters.required ?? []);
  const args: Record<string, unknown> = {};
  for (const [name, p] of Object.entries(props)) if (required.has(name)) args[name] = exampleValue(name, p);
  return formatToolCall({ name: tool.name, arguments: args });
}

function describeTool(tool: CatalogueTool): string {
  const props = tool.parameters.properties ?? {};
  const required = new Set(tool.parameters.required ?? []);
  const params = Object.entries(props).map(([name, p]) => `  - ${name} (${typeOf(p)}${required.has(name) ? ', required' : ', optional'})${p.description ? `: ${p.description}` : ''}`);
  return [`### ${tool.name}`, tool.description, params.length ? 'Parameters:' : 'No parameters.', ...params, 'Example:', exampleCall(tool)].join('\n');
}

export function formatToolCatalogue(tools: readonly CatalogueTool[]): string {
  return [
    '## Tools',
    'You can use the tools below. To use one, write a tool call exactly in this form, with the arguments as a JSON object:',
    '<tool_call>',
    '{"name": "TOOL_NAME", "arguments": {"PARAMETER": "VALUE"}}',
    '</tool_call>',
    'Rules:',
    '- You may write a short sentence first, then one or more tool calls. Write nothing after your tool calls.',
    '- After your calls you will receive each result in a <tool_result> message. Wait for it; never invent results.',
    '- When you need no tool, answer in plain text without any tool call.',
    '',
    ...tools.map(describeTool),
  ].join('\n');
}
