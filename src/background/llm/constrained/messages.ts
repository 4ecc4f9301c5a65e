/**
 * The conversation as a constrained model sees it: a short tool catalogue in the system prompt
 * (the schema already fixes the shape; the model still needs to know what each tool does), its
 * earlier steps as the JSON objects it was asked to write, and tool results as user turns.
 */
import type { LlmMessage, ToolCall, ToolSpec } from '../types';
import { STEP_FIELDS } from './schema';

interface ParameterSchema {
  type?: unknown;
  description?: unknown;
  enum?: unknown;
}

function parameterLine(name: string, schema: ParameterSchema, required: boolean): string {
  const type = Array.isArray(schema.enum) ? schema.enum.map((v) => JSON.stringify(v)).join(' | ') : Array.isArray(schema.type) ? schema.type.join(' | ') : String(schema.type ?? 'any');
  const description = typeof schema.description === 'string' ? `: ${schema.description}` : '';
  return `  - ${name} (${type}${required ? '' : ', optional'})${description}`;
}

function describeTool(tool: ToolSpec): string {
  const properties = (tool.parameters.properties ?? {}) as Record<string, ParameterSchema>;
  const required = new Set(Array.isArray(tool.parameters.required) ? (tool.parameters.required as string[]) : []);
  const lines = Object.entries(properties).map(([name, schema]) => parameterLine(name, schema, required.has(name)));
  return [`- ${tool.name}: ${tool.description}`, ...lines].join('\n');
}

export function constrainedCatalogue(tools: readonly ToolSpec[]): string {
  const { tool, arguments: args, answer } = STEP_FIELDS;
  return [
    '## Replying',
    'Each reply is exactly one JSON object, in one of two forms:',
    `- to use a tool: {"${tool}": "TOOL_NAME", "${args}": {"PARAMETER": VALUE}}`,
    `- to give your final answer to the user: {"${answer}": "YOUR ANSWER"}`,
    'Use one tool per reply. After a tool call you receive its result in the next message; never invent results.',
    '',
    '## Tools',
    ...tools.map(describeTool),
  ].join('\n');
}

/** An earlier call, written as the step object the model is asked for. */
export function formatStepCall(call: Pick<ToolCall, 'name' | 'arguments'>): string {
  return JSON.stringify({ [STEP_FIELDS.tool]: call.name, [STEP_FIELDS.arguments]: call.arguments });
}

function formatStepAnswer(text: string): string {
  return JSON.stringify({ [STEP_FIELDS.answer]: text });
}

function toolResult(message: Extract<LlmMessage, { role: 'tool' }>): string {
  return `Result of ${message.name}:\n${message.content}`;
}

/**
 * Rewrites a conversation for constrained mode. An assistant turn with calls becomes one step
 * object per call (earlier turns in another mode may hold several); one without becomes an answer
 * object. Tool results come back as user turns, consecutive ones joined, with their images.
 */
export function toConstrainedMessages(messages: readonly LlmMessage[], catalogue: string): LlmMessage[] {
  const out: LlmMessage[] = messages[0]?.role === 'system' ? [] : [{ role: 'system', content: catalogue }];
  let resultsOpen = false;
  for (const [index, message] of messages.entries()) {
    if (message.role === 'system') {
      out.push({ role: 'system', content: index === 0 ? `${message.content}\n\n${catalogue}` : message.content });
    } else if (message.role === 'assistant') {
      const calls = message.toolCalls ?? [];
      const content = calls.length ? calls.map(formatStepCall).join('\n') : formatStepAnswer(message.content);
      out.push({ role: 'assistant', content });
    } else if (message.role === 'tool') {
      const images = message.images ?? [];
      const previous = out.at(-1);
      if (resultsOpen && previous?.role === 'user') {
        previous.content += `\n\n${toolResult(message)}`;
        if (images.length) previous.images = [...(previous.images ?? []), ...images];
      } else out.push({ role: 'user', content: toolResult(message), ...(images.length ? { images: [...images] } : {}) });
      resultsOpen = true;
      continue;
    } else {
      out.push(message);
    }
    resultsOpen = false;
  }
  return out;
}
