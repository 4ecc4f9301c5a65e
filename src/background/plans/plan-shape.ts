/**
 * The plan as the planner's model writes it: the `propose_plan` tool's JSON Schema (kept small,
 * so small models manage it), and a tolerant reading of what models actually send before
 * `PlanSchema` checks it. The reading accepts only what is unambiguous: `depends_on` for
 * `dependsOn`, ids as numbers, a tab as a bare id or address, a tab object without its `kind`,
 * fields as "name: type" strings or a `{ name: type }` map, "Delivery time" for `delivery_time`,
 * `float` for `number`, `click` for `interact`. Anything else is left for the schema
 * to reject, and the model is told why.
 */
import { FieldTypeSchema, MAX_PLAN_STEPS } from '../../shared/plan';
import type { ToolSpec } from '../llm/types';

export const PROPOSE_PLAN = 'propose_plan';

export const PROPOSE_PLAN_SPEC: ToolSpec = {
  name: PROPOSE_PLAN,
  description: 'Propose the plan: the steps that together do what the user asked, each in one tab.',
  parameters: {
    type: 'object',
    properties: {
      title: { type: 'string', description: 'A short title, e.g. "Compare the kettle on three shops".' },
      steps: {
        type: 'array',
        minItems: 1,
        maxItems: MAX_PLAN_STEPS,
        items: {
          type: 'object',
          properties: {
            id: { type: 'string', description: 'A short id: a, b, c…' },
            goal: { type: 'string', description: 'What this step does in its tab, in one sentence.' },
            tab: {
              type: 'object',
              description: 'Where the step works: {"kind":"tab","tabId":3} an open tab; {"kind":"url","url":"https://…"} a page to open; {"kind":"from_step","stepId":"a","field":"link"} the URL field an earlier step returns.',
              properties: {
                kind: { type: 'string', enum: ['tab', 'url', 'from_step'] },
                tabId: { type: 'integer' },
                url: { type: 'string' },
                stepId: { type: 'string' },
                field: { type: 'string' },
              },
              required: ['kind'],
            },
            dependsOn: { type: 'array', items: { type: 'string' }, description: 'Ids of the steps whose results this step needs.' },
            fields: {
              type: 'array',
              description: 'The values the step must return.',
              items: {
                type: 'object',
                properties: { name: { type: 'string', description: 'lower_snake_case' }, type: { type: 'string', enum: FieldTypeSchema.options }, description: { type: 'string' } },
                required: ['name', 'type'],
              },
            },
            may: { type: 'array', items: { type: 'string', enum: ['interact', 'navigate'] }, description: 'interact: click, type or fill on the page; navigate: load other pages of its site. Empty: it only reads.' },
          },
          required: ['id', 'goal', 'tab'],
        },
      },
    },
    required: ['title', 'steps'],
  },
};

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const isWebAddress = (text: string) => /^https?:\/\//i.test(text.trim());

/** The model's arguments, made as close to `PlanSchema` as they unambiguously can be. */
export function normalisePlan(raw: unknown): unknown {
  if (!isObject(raw)) return raw;
  // Some models wrap the plan once more: {"plan": {...}}.
  const plan = !('steps' in raw) && isObject(raw.plan) ? raw.plan : raw;
  if (!Array.isArray(plan.steps)) return plan;
  return { ...plan, steps: plan.steps.slice(0, MAX_PLAN_STEPS + 1).map(normaliseStep) };
}

function normaliseStep(raw: unknown): unknown {
  if (!isObject(raw)) return raw;
  const step: Json = { ...raw };
  rename(step, ['depends_on', 'dependencies', 'deps', 'after'], 'dependsOn');
  rename(step, ['returns', 'outputs', 'extract'], 'fields');
  if (typeof step.id === 'number') step.id = String(step.id);
  if (step.goal === undefined && typeof step.task === 'string') step.goal = step.task;
  if (step.dependsOn !== undefined) step.dependsOn = idList(step.dependsOn);
  if (step.may !== undefined) step.may = mayList(step.may);
  step.tab = tabOf(step);
  if (step.fields !== undefined) step.fields = fieldList(step.fields);
  return step;
}

function rename(step: Json, from: readonly string[], to: string): void {
  for (const key of from) {
    if (step[to] === undefined && step[key] !== undefined) step[to] = step[key];
  }
}

function idList(value: unknown): unknown {
  const list = Array.isArray(value) ? value : typeof value === 'string' || typeof value === 'number' ? [value] : value;
  return Array.isArray(list) ? list.map((id) => (typeof id === 'number' ? String(id) : id)) : list;
}

function tabOf(step: Json): unknown {
  // A step naming its place at the top level ("tab_id": 3, "url": "…") counts only when it names one.
  const places = [step.tabId, step.tab_id, step.url].filter((place) => place !== undefined);
  const tab = step.tab ?? (places.length === 1 ? places[0] : undefined);
  if (typeof tab === 'number') return { kind: 'tab', tabId: tab };
  if (typeof tab === 'string') {
    if (/^\d{1,9}$/.test(tab.trim())) return { kind: 'tab', tabId: Number(tab) };
    return isWebAddress(tab) ? { kind: 'url', url: tab.trim() } : tab;
  }
  if (!isObject(tab)) return tab;
  const out: Json = { ...tab };
  rename(out, ['tab_id', 'id'], 'tabId');
  rename(out, ['step_id', 'step', 'from'], 'stepId');
  if (typeof out.tabId === 'string' && /^\d{1,9}$/.test(out.tabId)) out.tabId = Number(out.tabId);
  if (typeof out.stepId === 'number') out.stepId = String(out.stepId);
  if (out.kind === undefined) {
    // The kind follows from the one way of naming a place the object uses.
    const ways = [out.tabId !== undefined && 'tab', typeof out.url === 'string' && 'url', out.stepId !== undefined && out.field !== undefined && 'from_step'].filter(Boolean);
    if (ways.length === 1) out.kind = ways[0];
  }
  return out;
}

function fieldList(value: unknown): unknown {
  // {"price": "number", "currency": "string"}
  if (isObject(value)) return Object.entries(value).map(([name, type]) => fieldOf({ name, type }));
  if (!Array.isArray(value)) return value;
  return value.map((field) => {
    // "price: number"
    if (typeof field === 'string') {
      const [name, type] = field.split(':').map((part) => part.trim());
      return type ? fieldOf({ name, type }) : field;
    }
    return isObject(field) ? fieldOf(field) : field;
  });
}

/** Other words models use for a field's type. */
const TYPE_WORDS: Record<string, string> = { float: 'number', int: 'number', integer: 'number', decimal: 'number', double: 'number', price: 'number', text: 'string', str: 'string', bool: 'boolean', link: 'url', uri: 'url', href: 'url', datetime: 'date' };

function fieldOf(field: Json): Json {
  const out = { ...field };
  // "Delivery time" → delivery_time, when that is a field name.
  if (typeof out.name === 'string') {
    const name = out.name.trim().toLowerCase().replace(/[\s-]+/g, '_');
    if (/^[a-z][a-z0-9_]{0,39}$/.test(name)) out.name = name;
  }
  if (typeof out.type === 'string') {
    const type = out.type.trim().toLowerCase();
    out.type = TYPE_WORDS[type] ?? type;
  }
  return out;
}

/** Actions named by what they do: clicking, typing… is `interact`; reading needs no permission. */
const MAY_WORDS: Record<string, string | undefined> = { click: 'interact', fill: 'interact', type: 'interact', select: 'interact', submit: 'interact', write: 'interact', navigation: 'navigate', read: undefined, none: undefined };

function mayList(value: unknown): unknown {
  const list = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(list)) return list;
  const kinds = list.map((item) => (typeof item === 'string' && item.toLowerCase() in MAY_WORDS ? MAY_WORDS[item.toLowerCase()] : item)).filter((item) => item !== undefined);
  return [...new Set(kinds)];
}
