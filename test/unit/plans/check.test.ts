/** The rules of a plan beyond its schema, each broken on purpose: every problem is named in words. */
import { checkPlan, isReadOnly, sitesOf } from '../../../src/background/plans/check';
import { PlanSchema, type Plan } from '../../../src/shared/plan';

const tabs = [
  { id: 3, url: 'https://shop-a.example/kettle' },
  { id: 7, url: 'https://shop-b.example/p/42' },
];

const plan = (steps: unknown[]): Plan => PlanSchema.parse({ title: 'Compare', steps });
const read = (id: string, tabId: number, extra: object = {}) => ({ id, goal: `Read ${id}`, tab: { kind: 'tab', tabId }, fields: [{ name: 'price', type: 'number' }], ...extra });

test('a valid comparison over two open tabs and an address has no problems', () => {
  const p = plan([read('a', 3), read('b', 7), { id: 'c', goal: 'Read c', tab: { kind: 'url', url: 'https://shop-c.example/k' }, fields: [{ name: 'price', type: 'number' }] }]);
  expect(checkPlan(p, tabs)).toEqual([]);
});

test('duplicate ids, a missing dependency and a step depending on itself are each named', () => {
  const p = plan([read('a', 3), read('a', 7), read('b', 3, { dependsOn: ['zz', 'b'] })]);
  expect(checkPlan(p, tabs)).toEqual([
    'Two steps have the id "a"; each step needs its own id.',
    'Step "b" depends on "zz", but there is no step "zz".',
    'Step "b" depends on itself.',
  ]);
});

test('a cycle of dependencies is reported with its path', () => {
  const p = plan([read('a', 3, { dependsOn: ['c'] }), read('b', 7, { dependsOn: ['a'] }), read('c', 3, { dependsOn: ['b'] })]);
  expect(checkPlan(p, tabs)).toEqual(['The steps depend on each other in a circle (a → c → b → a); a step can only use steps that finish before it.']);
});

test('a tab that is not open and an address that is not http(s) are refused', () => {
  const p = plan([read('a', 99), { id: 'b', goal: 'Open', tab: { kind: 'url', url: 'javascript:alert(1)' } }, { id: 'c', goal: 'Open', tab: { kind: 'url', url: 'file:///etc/passwd' } }]);
  expect(checkPlan(p, tabs)).toEqual([
    'Step "a" works in tab 99, which is not open; use one of the open tabs\' ids or a URL.',
    'Step "b" opens "javascript:alert(1)", which is not an http or https address.',
    'Step "c" opens "file:///etc/passwd", which is not an http or https address.',
  ]);
});

test('from_step must name a dependency and a url field that step returns', () => {
  const search = { id: 's', goal: 'Find the first result', tab: { kind: 'tab', tabId: 3 }, fields: [{ name: 'link', type: 'url' }, { name: 'title', type: 'string' }] };
  const fine = plan([search, { id: 'r', goal: 'Read it', tab: { kind: 'from_step', stepId: 's', field: 'link' }, dependsOn: ['s'] }]);
  expect(checkPlan(fine, tabs)).toEqual([]);
  const p = plan([
    search,
    { id: 'r1', goal: 'x', tab: { kind: 'from_step', stepId: 's', field: 'link' } },
    { id: 'r2', goal: 'x', tab: { kind: 'from_step', stepId: 's', field: 'title' }, dependsOn: ['s'] },
    { id: 'r3', goal: 'x', tab: { kind: 'from_step', stepId: 's', field: 'nope' }, dependsOn: ['s'] },
  ]);
  expect(checkPlan(p, tabs)).toEqual([
    'Step "r1" takes its URL from step "s", so it must list "s" in dependsOn.',
    'Step "r2" takes its URL from field "title" of step "s", which is a string, not a url.',
    'Step "r3" takes its URL from field "nope" of step "s", but that step returns no such field.',
  ]);
});

test('a tab FoxAgent cannot work in is refused with its own reason', () => {
  const p = plan([read('a', 5)]);
  const withBrowserPage: { id: number; url: string; restriction?: string }[] = [...tabs, { id: 5, url: 'about:preferences', restriction: 'a browser page' }];
  expect(checkPlan(p, withBrowserPage)).toEqual(['Step "a" works in tab 5, a page FoxAgent cannot work in; use another tab or a URL.']);
});

test('a field returned twice by one step is a problem', () => {
  const p = plan([{ ...read('a', 3), fields: [{ name: 'price', type: 'number' }, { name: 'price', type: 'string' }] }]);
  expect(checkPlan(p, tabs)).toEqual(['Step "a" returns the field "price" twice.']);
});

test('isReadOnly: only a plan whose steps may neither interact nor navigate', () => {
  expect(isReadOnly(plan([read('a', 3), read('b', 7)]))).toBe(true);
  expect(isReadOnly(plan([read('a', 3), read('b', 7, { may: ['interact'] })]))).toBe(false);
  expect(isReadOnly(plan([read('a', 3, { may: ['navigate'] })]))).toBe(false);
});

test('sitesOf: the origin of the step\'s open tab or address; none while an earlier step decides it', () => {
  const [a, b, c] = plan([
    read('a', 7),
    { id: 'b', goal: 'x', tab: { kind: 'url', url: 'https://shop-c.example/k?x=1' }, fields: [{ name: 'link', type: 'url' }] },
    { id: 'c', goal: 'x', tab: { kind: 'from_step', stepId: 'b', field: 'link' }, dependsOn: ['b'] },
  ]).steps;
  expect(sitesOf(a!, tabs)).toEqual(['https://shop-b.example']);
  expect(sitesOf(b!, tabs)).toEqual(['https://shop-c.example']);
  expect(sitesOf(c!, tabs)).toEqual([]);
});
