/**
 * Tools defined by a JSON Schema (as MCP servers give them) beside zod tools: the schema is their
 * spec in native calls and the text catalogue, arguments are checked against it with errors the
 * model can act on, and a schema FoxAgent cannot check is refused with the reason.
 */
import { z } from 'zod';
import { formatToolCatalogue } from '../../../src/background/llm/tool-protocol/xml-prompt';
import { defineJsonSchemaTool, defineTool, ToolRegistry } from '../../../src/background/tools/registry';

const SEARCH_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: {
    query: { type: 'string', minLength: 1, description: 'What to look for' },
    scope: { type: 'string', enum: ['files', 'issues'] },
    limit: { type: 'integer', minimum: 1, maximum: 50 },
    labels: { type: 'array', items: { type: 'string' }, maxItems: 3 },
    filter: { type: 'object', properties: { since: { type: 'string' }, open: { type: 'boolean' } }, required: ['open'], additionalProperties: false },
    target: { anyOf: [{ type: 'string' }, { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] }] },
    code: { type: 'string', pattern: '^(a+)+$' },
  },
  required: ['query', 'scope'],
  additionalProperties: false,
};

const received: Record<string, unknown>[] = [];
const search = defineJsonSchemaTool({
  name: 'search',
  description: 'Search the project',
  inputSchema: SEARCH_SCHEMA,
  risk: 'read',
  timeoutMs: 1000,
  run: async (args) => {
    received.push(args);
    return { ok: true, content: 'found' };
  },
});
const click = defineTool({ name: 'click', description: 'Click', input: z.object({ id: z.coerce.number().int() }), risk: 'interact', timeoutMs: 1000, run: async ({ id }) => ({ ok: true, content: `clicked ${id.toFixed(0)}` }) });
const registry = new ToolRegistry([click, search]);
const validate = (args: Record<string, unknown>) => registry.validate({ id: '1', name: 'search', arguments: args });

test('its spec for native calls is the schema it came with', () => {
  const { $schema: _version, ...parameters } = SEARCH_SCHEMA;
  expect(registry.specs().find((s) => s.name === 'search')).toEqual({ name: 'search', description: 'Search the project', parameters });
});

test('the text protocol\'s catalogue lists its parameters, types and required ones', () => {
  const catalogue = formatToolCatalogue(registry.specs() as Parameters<typeof formatToolCatalogue>[0]);
  expect(catalogue).toContain('### search');
  expect(catalogue).toContain('- query (string, required): What to look for');
  expect(catalogue).toContain('- scope ("files" | "issues", required)');
  expect(catalogue).toContain('- labels (array of string, optional)');
});

test('valid arguments pass, nested objects, arrays, enums and unions included, and reach the tool', async () => {
  const checked = validate({ query: 'parser', scope: 'files', limit: 5, labels: ['bug'], filter: { open: true }, target: { id: 3 } });
  expect(checked).toMatchObject({ ok: true, args: { query: 'parser', scope: 'files', limit: 5, labels: ['bug'], filter: { open: true }, target: { id: 3 } } });
  if (!checked.ok) return;
  await checked.tool.run(checked.args, { signal: new AbortController().signal, conversationId: 'c', task: { openedTabs: new Set() } });
  expect(received.at(-1)).toEqual(checked.args);
});

test('invalid arguments come back naming each problem, so the model can fix its call', () => {
  const checked = validate({ query: '', scope: 'everything', limit: 0.5, filter: { since: 3 }, target: true, extra: 1 });
  expect(checked.ok).toBe(false);
  if (checked.ok) return;
  expect(checked.error).toMatch(/^Invalid arguments for search: /);
  expect(checked.error).toMatch(/query: Too small/);
  expect(checked.error).toMatch(/scope: Invalid option: expected one of "files"\|"issues"/);
  expect(checked.error).toMatch(/limit: Invalid input: expected int/);
  expect(checked.error).toMatch(/filter\.since: Invalid input: expected string/);
  expect(checked.error).toMatch(/filter\.open: Invalid input: expected boolean/);
  expect(checked.error).toMatch(/target: matches none of the allowed forms: \(1\) target: Invalid input: expected string, received boolean \(2\) target: Invalid input: expected object/);
  expect(checked.error).toMatch(/Unrecognized key: "extra"/);
  expect(checked.error).toMatch(/Fix them and call search again\.$/);
  expect(validate({ scope: 'files' })).toMatchObject({ ok: false, error: expect.stringMatching(/query: Invalid input: expected string, received undefined/) });
});

test('a pattern is left to the tool\'s server: a catastrophic one is not run on what the model wrote', () => {
  const started = performance.now();
  expect(validate({ query: 'q', scope: 'files', code: `${'a'.repeat(40)}!` }).ok).toBe(true);
  expect(performance.now() - started).toBeLessThan(200);
});

test.each([
  ['if/then/else', { type: 'object', if: { properties: { a: { const: 1 } } }, then: { required: ['b'] } }, /Conditional schemas/],
  ['not', { type: 'object', properties: { a: { not: { type: 'string' } } } }, /not is not supported/],
  ['patternProperties', { type: 'object', patternProperties: { '^x': { type: 'string' } } }, /patternProperties, which FoxAgent does not support/],
  ['a root that is not an object', { type: 'array', items: { type: 'string' } }, /must describe an object of arguments/],
  ['a schema nested too deep', Array.from({ length: 40 }).reduce<object>((inner) => ({ type: 'object', properties: { a: inner } }), { type: 'string' }), /nested deeper than 32 levels/],
  ['an external $ref', { type: 'object', properties: { a: { $ref: 'https://example.com/schema.json' } } }, /External \$ref is not supported/],
])('a schema using %s is refused, naming the tool and the reason', (_what, inputSchema, reason) => {
  const define = () => defineJsonSchemaTool({ name: 'odd', description: 'An odd tool', inputSchema: inputSchema as Record<string, unknown>, risk: 'read', timeoutMs: 1000, run: async () => ({ ok: true, content: '' }) });
  expect(define).toThrow(/^Tool "odd" cannot be offered: /);
  expect(define).toThrow(reason);
});

test('a property named like a keyword ("pattern", "items") is a property, not a keyword', () => {
  const tool = defineJsonSchemaTool({
    name: 'grep',
    description: 'Search text',
    inputSchema: { type: 'object', properties: { pattern: { type: 'string' }, items: { type: 'integer' } }, required: ['pattern'] },
    risk: 'read',
    timeoutMs: 1000,
    run: async () => ({ ok: true, content: '' }),
  });
  expect(tool.check({ pattern: 'a+', items: 2 })).toEqual({ ok: true, args: { pattern: 'a+', items: 2 } });
  expect(tool.check({ items: 2 })).toMatchObject({ ok: false, problems: expect.stringMatching(/pattern: Invalid input/) });
});

test('zod tools keep their handler\'s arguments typed (checked by tsc)', () => {
  defineTool({
    name: 'typed',
    description: 'A typed tool',
    input: z.object({ id: z.number(), label: z.string().optional() }),
    risk: 'read',
    timeoutMs: 1000,
    run: async ({ id, label }) => {
      // @ts-expect-error id is a number, not a string
      id.toUpperCase();
      // @ts-expect-error label may be undefined
      label.trim();
      return { ok: true, content: String(id) };
    },
  });
  // A JSON Schema tool's arguments are a plain record.
  defineJsonSchemaTool({ name: 'loose', description: 'A loose tool', inputSchema: { type: 'object' }, risk: 'read', timeoutMs: 1000, run: async (args) => ({ ok: true, content: Object.keys(args).join() }) });
  expect(true).toBe(true);
});
