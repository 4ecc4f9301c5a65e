/**
 * The JSON Schema a constrained step must match: one object that is either a call of one of the
 * listed tools, `{"tool": "<name>", "arguments": {…}}` with arguments matching that tool's own
 * schema, or a final answer, `{"answer": "<text>"}`. One `anyOf` branch per tool (its name a
 * `const`) plus the answer branch, each closed with `additionalProperties: false`, so a server
 * that decodes against it cannot produce a malformed call, an unknown tool or stray keys.
 */
import type { ToolSpec } from '../types';

/** The field names of a step object, in one place for the schema, the prompt, the history and the reader. */
export const STEP_FIELDS = { tool: 'tool', arguments: 'arguments', answer: 'answer' } as const;

/** The schema's name on OpenAI's wire (letters, digits, `_`, `-`; at most 64). */
export const STEP_SCHEMA_NAME = 'agent_step';

export type JsonSchema = Record<string, unknown>;

/** The arguments schema of one tool, closed where it declares its properties and says nothing itself. */
function argumentsSchema(parameters: JsonSchema): JsonSchema {
  const declared = parameters.properties !== undefined || parameters.type === 'object';
  const closed = declared && parameters.additionalProperties === undefined ? { additionalProperties: false } : {};
  return withoutSafeIntegerBounds({ type: 'object', ...parameters, ...closed }) as JsonSchema;
}

/**
 * The schema without the bounds zod writes on every integer (±2^53−1): they constrain nothing a
 * JSON number does not, and servers that compile the schema to a grammar build digit-range rules
 * for them.
 */
function withoutSafeIntegerBounds(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutSafeIntegerBounds);
  if (!node || typeof node !== 'object') return node;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    const needless = (key === 'maximum' && value === Number.MAX_SAFE_INTEGER) || (key === 'minimum' && value === Number.MIN_SAFE_INTEGER);
    if (!needless) out[key] = key === 'const' || key === 'enum' || key === 'default' ? value : withoutSafeIntegerBounds(value);
  }
  return out;
}

export function stepSchema(tools: readonly ToolSpec[]): JsonSchema {
  const calls = tools.map((tool) => ({
    type: 'object',
    properties: { [STEP_FIELDS.tool]: { const: tool.name }, [STEP_FIELDS.arguments]: argumentsSchema(tool.parameters) },
    required: [STEP_FIELDS.tool, STEP_FIELDS.arguments],
    additionalProperties: false,
  }));
  const answer = {
    type: 'object',
    properties: { [STEP_FIELDS.answer]: { type: 'string' } },
    required: [STEP_FIELDS.answer],
    additionalProperties: false,
  };
  return { anyOf: [...calls, answer] };
}

/** Keywords OpenAI's strict mode refuses (or ignores) in a schema. */
const NOT_STRICT = new Set(['minLength', 'maxLength', 'pattern', 'format', 'minimum', 'maximum', 'minItems', 'maxItems', 'default', 'oneOf', 'allOf', 'not']);

/**
 * Whether OpenAI's strict structured outputs would take this schema: the root an object (not
 * `anyOf`), every object closed with all its properties required, and none of the keywords strict
 * mode refuses. Our step schema's root is an `anyOf`, so it never is today: we send `strict: false`
 * rather than a schema OpenAI answers with a 400 (see docs/decisions/constrained-mode.md).
 */
export function isStrictCompatible(schema: JsonSchema): boolean {
  if (schema.type !== 'object' || 'anyOf' in schema) return false;
  return strictNode(schema);
}

function strictNode(node: unknown): boolean {
  if (Array.isArray(node)) return node.every(strictNode);
  if (!node || typeof node !== 'object') return true;
  const schema = node as JsonSchema;
  if (Object.keys(schema).some((k) => NOT_STRICT.has(k))) return false;
  if (schema.type === 'object' || schema.properties) {
    const keys = Object.keys((schema.properties as JsonSchema | undefined) ?? {});
    const required = new Set((schema.required as string[] | undefined) ?? []);
    if (schema.additionalProperties !== false || keys.some((k) => !required.has(k))) return false;
  }
  return Object.entries(schema).every(([key, value]) => key === 'const' || key === 'enum' || strictNode(value));
}
