/**
 * A step's fields: values coerced to their types (both decimal conventions, dates, absolute
 * addresses), problems the model reads, and `return_fields` ending a real agent loop with the
 * record, through the real provider code on the scripted server.
 */
import { runAgentLoop } from '../../../src/background/agent/loop';
import { coerceField, parseNumber } from '../../../src/background/plans/field-values';
import { RETURN_FIELDS, withStepTools } from '../../../src/background/plans/step-tools';
import { PlanStepSchema } from '../../../src/shared/plan';
import { allowAll, pageWorld, routerFor } from '../../support/agent-fixtures';
import { startLlmServer, type LlmServer } from '../../support/llm-server';

test.each([
  ['€1,299.00', 1299],
  ['1.299,00 €', 1299],
  ['1 299,50 EUR', 1299.5],
  ["CHF 1'299.95", 1299.95],
  ['12,50', 12.5],
  ['12.50', 12.5],
  ['1,299', 1299],
  ['1.000.000', 1000000],
  ['Price: $ 0.99 incl. VAT', 0.99],
  ['-5', -5],
  ['3 to 5 days', 3],
])('number: %j is %d', (text, value) => {
  expect(parseNumber(text)).toBe(value);
  expect(coerceField('number', text)).toEqual({ ok: true, value });
});

test('number: a text without a number is a problem the model reads; null and "" are "not found"', () => {
  expect(coerceField('number', 'out of stock')).toEqual({ ok: false, problem: '"out of stock" is not a number; give the number alone, e.g. 1299.5' });
  expect(coerceField('number', null)).toEqual({ ok: true, value: null });
  expect(coerceField('number', '  ')).toEqual({ ok: true, value: null });
  expect(coerceField('number', 42)).toEqual({ ok: true, value: 42 });
  expect(coerceField('number', [1, 2])).toEqual({ ok: false, problem: 'give a single number value, not a list' });
});

test.each([
  ['2024-05-03', '2024-05-03'],
  ['2024-05-03T10:00:00Z', '2024-05-03'],
  ['3.5.2024', '2024-05-03'],
  ['3 May 2024', '2024-05-03'],
  ['May 3rd, 2024', '2024-05-03'],
  ['13/05/2024', '2024-05-13'],
  ['05/13/2024', '2024-05-13'],
])('date: %j is %s', (text, iso) => {
  expect(coerceField('date', text)).toEqual({ ok: true, value: iso });
});

test('date: an ambiguous or impossible date is a problem, not a guess', () => {
  expect(coerceField('date', '03/05/2024')).toMatchObject({ ok: false, problem: expect.stringContaining('either way round') });
  expect(coerceField('date', '2024-02-30')).toMatchObject({ ok: false, problem: expect.stringContaining('no such day') });
  expect(coerceField('date', 'next Tuesday')).toMatchObject({ ok: false, problem: expect.stringContaining('YYYY-MM-DD') });
});

test('url: only absolute http(s) addresses; boolean and string values', () => {
  expect(coerceField('url', ' https://shop.example/p?id=1 ')).toEqual({ ok: true, value: 'https://shop.example/p?id=1' });
  expect(coerceField('url', '/p/42')).toMatchObject({ ok: false, problem: expect.stringContaining('not an absolute http(s) address') });
  expect(coerceField('url', 'javascript:alert(1)')).toMatchObject({ ok: false });
  expect(coerceField('boolean', 'Yes')).toEqual({ ok: true, value: true });
  expect(coerceField('boolean', 'maybe')).toMatchObject({ ok: false });
  expect(coerceField('string', 12)).toEqual({ ok: true, value: '12' });
  expect(coerceField('string', 'x'.repeat(5000))).toEqual({ ok: true, value: 'x'.repeat(2000) });
});

test('a 300 KB value is read in bounded time', () => {
  const hostile = '1,'.repeat(150_000);
  const started = performance.now();
  for (const type of ['number', 'date', 'url', 'string', 'boolean'] as const) coerceField(type, hostile);
  expect(performance.now() - started).toBeLessThan(200);
});

const step = PlanStepSchema.parse({
  id: 'a',
  goal: 'Read the kettle price',
  tab: { kind: 'tab', tabId: 3 },
  fields: [
    { name: 'price', type: 'number', description: 'The price' },
    { name: 'currency', type: 'string' },
    { name: 'in_stock', type: 'boolean' },
  ],
});

test('return_fields replaces done in a view of the registry, with a schema built from the fields', () => {
  const world = pageWorld();
  const { tools } = withStepTools(world.tools, step);
  expect(tools.names).toEqual([...world.tools.names.filter((n) => n !== 'done'), RETURN_FIELDS]);
  expect(tools.get('read_page')).toBe(world.tools.get('read_page'));
  expect(tools.get('done')).toBeUndefined();
  expect(tools.get(RETURN_FIELDS)!.parameters).toMatchObject({
    properties: { fields: { properties: { price: { type: ['number', 'null'], description: 'The price' }, currency: { type: ['string', 'null'] } }, required: ['price', 'currency', 'in_stock'] } },
  });
  // A step without fields keeps the registry as it is.
  const plain = withStepTools(world.tools, { ...step, fields: [] });
  expect(plain.tools).toBe(world.tools);
  expect(plain.fields()).toBeUndefined();
});

test('return_fields: unknown names and values that cannot be read are argument errors', () => {
  const { tools } = withStepTools(pageWorld().tools, step);
  const validated = tools.validate({ id: '1', name: RETURN_FIELDS, arguments: { fields: { price: 'ask us', Currency: 'EUR' } } });
  expect(validated).toEqual({
    ok: false,
    error: 'Invalid arguments for return_fields: there is no field "Currency"; the fields are price, currency, in_stock; price: "ask us" is not a number; give the number alone, e.g. 1299.5. Fix them and call return_fields again.',
  });
  // Fields put at the top level are taken as the fields; a missing one is "not found".
  expect(tools.validate({ id: '2', name: RETURN_FIELDS, arguments: { price: '€ 10', summary: 'Found it.' } })).toMatchObject({ ok: true, args: { fields: { price: 10, currency: null, in_stock: null }, summary: 'Found it.' } });
});

describe('return_fields ends a real agent loop', () => {
  let server: LlmServer;
  beforeAll(async () => {
    server = await startLlmServer({ models: [{ name: 'qwen3:4b', tools: true, contextLength: 32768 }] });
  });
  afterAll(() => server.close());

  test.each(['ollama', 'openai'] as const)('%s: a bad value is repaired, then the step ends with the coerced record and its summary', async (api) => {
    server.reset();
    server.script(
      { toolCalls: [{ name: 'read_page', arguments: {} }] },
      { toolCalls: [{ name: RETURN_FIELDS, arguments: { fields: { price: 'call us', currency: 'EUR', in_stock: true } } }] },
      { toolCalls: [{ name: RETURN_FIELDS, arguments: { fields: { price: '1.299,00 €', currency: 'EUR', in_stock: 'yes' }, summary: 'The kettle costs 1299 EUR.' } }] },
      { text: 'never asked for' },
    );
    const world = pageWorld();
    const stepTools = withStepTools(world.tools, step);
    const outcome = await runAgentLoop(
      { conversationId: 'c1', model: 'qwen3:4b', mode: 'auto', messages: [{ role: 'system', content: 'Step.' }, { role: 'user', content: step.goal }] },
      { router: routerFor(server.url, api), tools: stepTools.tools, gate: allowAll, emit: () => undefined },
      new AbortController().signal,
    );
    expect(outcome).toEqual({ kind: 'done', summary: 'The kettle costs 1299 EUR.\nprice = 1299\ncurrency = "EUR"\nin_stock = true' });
    expect(stepTools.fields()).toEqual({ price: 1299, currency: 'EUR', in_stock: true });
    expect(stepTools.summary()).toBe('The kettle costs 1299 EUR.');
    const requests = server.chatRequests();
    expect(requests).toHaveLength(3);
    // The model was offered return_fields and not done, and read why its first call failed.
    const offered = (requests[0]!.body.tools as { function: { name: string } }[]).map((t) => t.function.name);
    expect(offered).toContain(RETURN_FIELDS);
    expect(offered).not.toContain('done');
    expect(JSON.stringify(requests[2]!.body.messages)).toContain('\\"call us\\" is not a number');
  });
});
