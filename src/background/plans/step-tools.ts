/**
 * The tools of one plan step: the agent's tools, and for a step that returns fields
 * `return_fields` in place of `done`. Its arguments' schema is built from the step's field specs;
 * the registry checks and coerces the values (a value that cannot be read as its type is an
 * argument error the model reads and fixes), and a successful call ends the step, as `done`
 * does, with the record kept for the plan.
 */
import type { FieldRecord, FieldSpec, FieldType, PlanStep } from '../../shared/plan';
import type { RegisteredTool, ToolRegistry } from '../tools/registry';
import { coerceField, MAX_VALUE_CHARS } from './field-values';

export const RETURN_FIELDS = 'return_fields';

export interface StepTools {
  tools: ToolRegistry;
  /** The record `return_fields` returned; undefined until it was called (or for a step without fields). */
  fields(): FieldRecord | undefined;
  /** The step's one-line outcome from `return_fields`. */
  summary(): string | undefined;
}

export function withStepTools(base: ToolRegistry, step: PlanStep): StepTools {
  if (!step.fields.length) return { tools: base, fields: () => undefined, summary: () => undefined };
  let returned: { fields: FieldRecord; summary?: string } | undefined;
  const tool = returnFieldsTool(step.fields, (fields, summary) => {
    returned = { fields, ...(summary ? { summary } : {}) };
  });
  return { tools: base.extend([tool], new Set(['done'])), fields: () => returned?.fields, summary: () => returned?.summary };
}

const JSON_TYPES: Record<FieldType, Record<string, unknown>> = {
  string: { type: ['string', 'null'] },
  number: { type: ['number', 'null'] },
  boolean: { type: ['boolean', 'null'] },
  url: { type: ['string', 'null'], description: 'An absolute http(s) address.' },
  date: { type: ['string', 'null'], description: 'A date as YYYY-MM-DD.' },
};

function parametersOf(specs: readonly FieldSpec[]): Record<string, unknown> {
  const properties = Object.fromEntries(
    specs.map((spec) => {
      const base = JSON_TYPES[spec.type];
      const description = [spec.description, base.description].filter(Boolean).join(' ');
      return [spec.name, { ...base, ...(description ? { description } : {}) }];
    }),
  );
  return {
    type: 'object',
    properties: {
      fields: { type: 'object', properties, required: specs.map((s) => s.name), additionalProperties: false, description: 'Each field\'s value as found on the page, or null when the page does not show it.' },
      summary: { type: 'string', description: 'One sentence on what you found, for the user.' },
    },
    required: ['fields'],
  };
}

type Checked = ReturnType<RegisteredTool['check']>;

/** Checks and coerces `return_fields`' arguments; the problems are worded for the model. */
export function checkReturnedFields(specs: readonly FieldSpec[], args: unknown): Checked {
  const given = (args && typeof args === 'object' && !Array.isArray(args) ? args : {}) as Record<string, unknown>;
  // A small model may put the fields at the top level: unambiguous when `fields` is absent.
  const raw = given.fields ?? (specs.some((s) => s.name in given) ? given : undefined);
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return { ok: false, problems: `"fields" must be an object with ${specs.map((s) => s.name).join(', ')}` };
  const values = raw as Record<string, unknown>;
  const problems: string[] = [];
  const known = new Set(specs.map((s) => s.name));
  const unknown = Object.keys(values).filter((key) => !known.has(key) && !(raw === given && key === 'summary'));
  if (unknown.length) problems.push(`there is no field ${unknown.slice(0, 5).map((k) => `"${k.slice(0, 40)}"`).join(', ')}; the fields are ${[...known].join(', ')}`);
  const fields: FieldRecord = {};
  for (const spec of specs) {
    const coerced = coerceField(spec.type, values[spec.name]);
    if (coerced.ok) fields[spec.name] = coerced.value;
    else problems.push(`${spec.name}: ${coerced.problem}`);
  }
  if (problems.length) return { ok: false, problems: problems.join('; ') };
  const summary = typeof given.summary === 'string' ? given.summary.trim().slice(0, 1000) : undefined;
  return { ok: true, args: { fields, ...(summary ? { summary } : {}) } };
}

function returnFieldsTool(specs: readonly FieldSpec[], keep: (fields: FieldRecord, summary?: string) => void): RegisteredTool {
  const names = specs.map((s) => s.name).join(', ');
  return {
    name: RETURN_FIELDS,
    description: `Finish this step by returning the fields it asks for (${names}), each as found on the page, or null when the page does not show it. Never guess a value.`,
    brief: `Finish the step with the fields ${names} (null when not found).`,
    risk: 'read',
    ends: true,
    timeoutMs: 1000,
    parameters: parametersOf(specs),
    check: (args) => checkReturnedFields(specs, args),
    run: async (args) => {
      const fields = args.fields as FieldRecord;
      const summary = typeof args.summary === 'string' ? args.summary : undefined;
      keep(fields, summary);
      const listed = Object.entries(fields).map(([name, value]) => `${name} = ${value === null ? 'not found' : JSON.stringify(value).slice(0, MAX_VALUE_CHARS)}`);
      const content = summary ? `${summary}\n${listed.join('\n')}` : listed.join('\n');
      const preview = summary ?? listed.join(', ');
      return { ok: true, content, preview: preview.length > 200 ? `${preview.slice(0, 199)}…` : preview };
    },
  };
}
