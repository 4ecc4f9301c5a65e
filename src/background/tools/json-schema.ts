/**
 * Tools whose input is a JSON Schema (as MCP servers describe theirs) are validated with zod's
 * own JSON Schema reader, after a walk that bounds the schema and refuses what we do not run:
 * `pattern` is left to the tool's server (a regular expression from outside run on model output
 * could take forever), and `patternProperties` is refused. The schema itself is what the model is
 * shown, in native calls and in the text protocol's catalogue.
 */
import { z } from 'zod';

const MAX_DEPTH = 32;
const MAX_NODES = 2000;
const MAX_SCHEMA_CHARS = 64 * 1024;

/** Keywords whose value is a map of names to schemas, a list of schemas, or one schema (or a list, for `items` in older drafts). */
const MAPS = new Set(['properties', '$defs', 'definitions', 'dependentSchemas']);
const LISTS = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems']);
const SCHEMAS = new Set(['items', 'additionalItems', 'additionalProperties', 'not', 'contains', 'propertyNames', 'if', 'then', 'else', 'unevaluatedItems', 'unevaluatedProperties']);

export class SchemaError extends Error {}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A checker for arguments against `schema`; throws a `SchemaError` saying why a schema cannot be used. */
export function jsonSchemaChecker(schema: Record<string, unknown>): z.ZodType {
  if (!isObject(schema) || (schema.type !== undefined && schema.type !== 'object')) throw new SchemaError('its input schema must describe an object of arguments ("type": "object")');
  let size: number;
  try {
    size = JSON.stringify(schema).length;
  } catch {
    throw new SchemaError('its input schema is not JSON');
  }
  if (size > MAX_SCHEMA_CHARS) throw new SchemaError(`its input schema is larger than ${MAX_SCHEMA_CHARS / 1024} KB`);
  const nodes = { count: 0 };
  const checked = withoutPatterns(schema, 0, nodes);
  try {
    return z.fromJSONSchema({ type: 'object', ...(checked as object) });
  } catch (error) {
    throw new SchemaError(`its input schema uses what FoxAgent does not support: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function withoutPatterns(node: unknown, depth: number, nodes: { count: number }): unknown {
  if (!isObject(node)) return node;
  if (depth > MAX_DEPTH) throw new SchemaError(`its input schema is nested deeper than ${MAX_DEPTH} levels`);
  if (++nodes.count > MAX_NODES) throw new SchemaError(`its input schema has more than ${MAX_NODES} parts`);
  const inner = (value: unknown) => withoutPatterns(value, depth + 1, nodes);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'patternProperties') throw new SchemaError('its input schema uses patternProperties, which FoxAgent does not support');
    if (key === 'pattern') continue;
    if (MAPS.has(key) && isObject(value)) out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, inner(sub)]));
    else if ((LISTS.has(key) || SCHEMAS.has(key)) && Array.isArray(value)) out[key] = value.map(inner);
    else if (SCHEMAS.has(key)) out[key] = inner(value);
    else out[key] = value;
  }
  return out;
}

const MAX_ISSUES = 8;

/** Validation problems in words a model can act on: where, and what was wrong; for a union, how each form failed. */
export function describeIssues(issues: readonly z.core.$ZodIssue[], at: readonly PropertyKey[] = [], depth = 0): string {
  const described = issues.slice(0, MAX_ISSUES).map((issue) => {
    const path = [...at, ...issue.path];
    const where = path.map(String).join('.') || 'arguments';
    if (issue.code === 'invalid_union' && issue.errors.length && depth < 2) {
      const forms = issue.errors.slice(0, 4).map((errors, i) => `(${i + 1}) ${describeIssues(errors, path, depth + 1)}`);
      return `${where}: matches none of the allowed forms: ${forms.join(' ')}`;
    }
    return `${where}: ${issue.message}`;
  });
  const more = issues.length > MAX_ISSUES ? `; and ${issues.length - MAX_ISSUES} more` : '';
  return described.join('; ') + more;
}
