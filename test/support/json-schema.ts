/**
 * Checks a JSON text against a JSON Schema, as a server that constrains decoding guarantees it:
 * built on zod's `z.fromJSONSchema`, which covers the keywords our reply schemas use (type,
 * properties, required, additionalProperties, enum, const, anyOf, oneOf, items, minimum/maximum,
 * minLength/maxLength).
 */
import { z } from 'zod';

export type SchemaCheck = { ok: true } | { ok: false; problem: string };

export function checkAgainstSchema(schema: Record<string, unknown>, text: string): SchemaCheck {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, problem: `not JSON: ${text.slice(0, 120)}` };
  }
  const parsed = z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]).safeParse(value);
  if (parsed.success) return { ok: true };
  return { ok: false, problem: parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ') };
}
