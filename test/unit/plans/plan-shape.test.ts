/**
 * Plans as small models write them: extra keys, ids as numbers, `depends_on`, a tab as a bare id
 * or address, fields as strings or a map. The tolerant reading accepts what is unambiguous and
 * leaves the rest for the schema to reject.
 */
import { normalisePlan } from '../../../src/background/plans/plan-shape';
import { PlanSchema } from '../../../src/shared/plan';

const read = (raw: unknown) => PlanSchema.safeParse(normalisePlan(raw));

test('snake_case keys, numeric ids, bare tab ids and addresses, "name: type" fields and extra keys', () => {
  const parsed = read({
    title: 'Compare',
    reasoning: 'The user wants prices.',
    steps: [
      { id: 1, goal: 'Read A', tab: 3, fields: ['price: number', 'currency: string'], confidence: 0.9 },
      { id: 2, goal: 'Read B', tab_id: '7', fields: { price: 'number' } },
      { id: 3, task: 'Open C', url: 'https://shop-c.example/k', depends_on: [1, 2], may: 'navigate' },
    ],
  });
  expect(parsed.success).toBe(true);
  expect(parsed.data).toEqual({
    title: 'Compare',
    steps: [
      { id: '1', goal: 'Read A', tab: { kind: 'tab', tabId: 3 }, dependsOn: [], fields: [{ name: 'price', type: 'number' }, { name: 'currency', type: 'string' }], may: [] },
      { id: '2', goal: 'Read B', tab: { kind: 'tab', tabId: 7 }, dependsOn: [], fields: [{ name: 'price', type: 'number' }], may: [] },
      { id: '3', goal: 'Open C', tab: { kind: 'url', url: 'https://shop-c.example/k' }, dependsOn: ['1', '2'], fields: [], may: ['navigate'] },
    ],
  });
});

test('a tab object without its kind takes the kind of the one place it names; a wrapped plan is unwrapped', () => {
  const parsed = read({
    plan: {
      title: 'Open the first result',
      steps: [
        { id: 's', goal: 'Find it', tab: { tab_id: 3 }, fields: [{ name: 'link', type: 'url' }] },
        { id: 'r', goal: 'Read it', tab: { step_id: 's', field: 'link' }, dependsOn: 's' },
      ],
    },
  });
  expect(parsed.data?.steps.map((s) => s.tab)).toEqual([{ kind: 'tab', tabId: 3 }, { kind: 'from_step', stepId: 's', field: 'link' }]);
  expect(parsed.data?.steps[1]!.dependsOn).toEqual(['s']);
});

test('field names and types in other words, and actions named by what they do', () => {
  const parsed = read({
    title: 'Collect',
    steps: [
      { id: 'a', goal: 'Read', tab: 3, fields: [{ name: 'Delivery time', type: 'Integer' }, { name: 'product-link', type: 'link' }, { name: 'Price', type: 'float' }], may: ['read'] },
      { id: 'b', goal: 'Fill', tab: 7, may: ['click', 'type', 'fill'] },
    ],
  });
  expect(parsed.success).toBe(true);
  expect(parsed.data?.steps[0]!.fields).toEqual([
    { name: 'delivery_time', type: 'number' },
    { name: 'product_link', type: 'url' },
    { name: 'price', type: 'number' },
  ]);
  expect(parsed.data?.steps.map((s) => s.may)).toEqual([[], ['interact']]);
});

test('a real small-model reply: steps given their tabs as strings and fields as a map, with prose keys around', () => {
  const reply = JSON.parse(`{"title":"Kettle price comparison","thought":"three shops are open","steps":[
    {"id":1,"goal":"Get the price and delivery of the kettle","tab":"3","fields":{"price":"number","delivery":"string"},"depends_on":[]},
    {"id":2,"goal":"Get the price and delivery of the kettle","tab":{"tab_id":"7"},"fields":{"price":"number","delivery":"string"}},
    {"id":3,"goal":"Get the price and delivery of the kettle","tab":{"kind":"url","url":"https://shop-c.example/kettle"},"fields":{"price":"number","delivery":"string"},"may":"none"}]}`);
  const parsed = read(reply);
  expect(parsed.success).toBe(true);
  expect(parsed.data?.steps.map((s) => [s.id, s.tab, s.fields.map((f) => f.name), s.may])).toEqual([
    ['1', { kind: 'tab', tabId: 3 }, ['price', 'delivery'], []],
    ['2', { kind: 'tab', tabId: 7 }, ['price', 'delivery'], []],
    ['3', { kind: 'url', url: 'https://shop-c.example/kettle' }, ['price', 'delivery'], []],
  ]);
});

test('what is ambiguous is left for the schema to reject: steps as strings, a tab naming two places, a word for a tab', () => {
  expect(read({ title: 'x', steps: ['Read shop A', 'Read shop B'] }).success).toBe(false);
  expect(read({ title: 'x', steps: [{ id: 'a', goal: 'g', tab: { tabId: 3, url: 'https://a.example/' } }] }).success).toBe(false);
  expect(read({ title: 'x', steps: [{ id: 'a', goal: 'g', tab_id: 3, url: 'https://a.example/' }] }).success).toBe(false);
  expect(read({ title: 'x', steps: [{ id: 'a', goal: 'g', tab: 'the current tab' }] }).success).toBe(false);
  expect(read({ title: 'x', steps: [{ id: 'a', goal: 'g', tab: 3, fields: ['price'] }] }).success).toBe(false);
  expect(read({ title: 'x', steps: [{ id: 'a', goal: 'g', tab: 3, fields: [{ name: 'price', type: 'money' }] }] }).success).toBe(false);
  expect(read({ title: 'x', steps: [{ id: 'a', goal: 'g', tab: 3, may: ['open'] }] }).success).toBe(false);
});
