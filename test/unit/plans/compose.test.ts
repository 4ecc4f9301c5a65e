/** A plan's answer, composed without a model: the table holds what the steps returned, and nothing else. */
import { composeAnswer } from '../../../src/background/plans/compose';
import { PlanRecordSchema, type PlanRecord, type StepStatus } from '../../../src/shared/plan';
import { parseMarkdown } from '../../../src/sidebar/lib/markdown';

const fields = [
  { name: 'price', type: 'number' },
  { name: 'delivery_days', type: 'number' },
];

function record(steps: Partial<StepStatus>[], planSteps?: unknown[]): PlanRecord {
  return PlanRecordSchema.parse({
    id: 'p1',
    conversationId: 'c1',
    messageId: 'm1',
    request: 'Compare the kettle',
    plan: {
      title: 'Compare the kettle',
      steps: planSteps ?? [
        { id: 'a', goal: 'Read shop A', tab: { kind: 'tab', tabId: 3 }, fields },
        { id: 'b', goal: 'Read shop B', tab: { kind: 'tab', tabId: 7 }, fields },
        { id: 'c', goal: 'Read shop C', tab: { kind: 'url', url: 'https://shop-c.example/k' }, fields },
      ],
    },
    status: 'done',
    steps,
    readOnly: true,
    createdAt: 1,
    updatedAt: 2,
  });
}

const tabs = new Map([
  [3, { title: 'Kettle – Shop A', url: 'https://shop-a.example/kettle' }],
  [7, { title: '', url: 'https://shop-b.example/p/42' }],
  [12, { title: 'Shop C kettle', url: 'https://shop-c.example/k' }],
]);

test('a comparison: one row per step, a link that focuses each tab, missing values as — with the reason', () => {
  const answer = composeAnswer(
    record([
      { id: 'a', state: 'done', tabId: 3, fields: { price: 1299, delivery_days: 2 } },
      { id: 'b', state: 'done', tabId: 7, fields: { price: 24.5, delivery_days: null } },
      { id: 'c', state: 'failed', tabId: 12, reason: 'The tab was closed.' },
    ]),
    tabs,
  );
  expect(answer).toBe(
    [
      '| Source | price | delivery\\_days |',
      '| --- | --- | --- |',
      '| [Kettle – Shop A](foxagent:tab/3) | 1299 | 2 |',
      '| [shop-b.example](foxagent:tab/7) | 24.5 | — |',
      '| [Shop C kettle](foxagent:tab/12) | — | — |',
      '',
      'Missing: shop-b.example — delivery\\_days: not found on the page',
      '',
      'Missing: Shop C kettle — price, delivery\\_days: the step failed: The tab was closed.',
    ].join('\n'),
  );
  // The sidebar's own parser reads it as one table with the values in place.
  const table = parseMarkdown(answer).find((b) => b.type === 'table');
  expect(table && table.type === 'table' ? table.rows.length : 0).toBe(3);
});

test('a step that never ran or was skipped has no link and says why its values are missing', () => {
  const answer = composeAnswer(
    record([
      { id: 'a', state: 'done', tabId: 3, fields: { price: 10, delivery_days: 1 } },
      { id: 'b', state: 'skipped', reason: 'Step a failed.' },
    ]),
    tabs,
  );
  expect(answer).toContain('| [shop-b.example](foxagent:tab/7) | — | — |');
  expect(answer).toContain('Missing: shop-b.example — price, delivery\\_days: the step was skipped: Step a failed.');
  expect(answer).toContain('| shop-c.example | — | — |');
  expect(answer).toContain('Missing: shop-c.example — price, delivery\\_days: the step did not run');
});

test('a hostile title and values stay text in their cells: no link of theirs, no markup, no extra column', () => {
  const hostile = new Map([[3, { title: '| [x](javascript:alert(1)) <img src=x onerror=alert(1)>\n`code`', url: 'https://shop-a.example/' }]]);
  const answer = composeAnswer(
    record([{ id: 'a', state: 'done', tabId: 3, fields: { price: null, note: '[click](https://evil.example) | *bold*' } }], [
      { id: 'a', goal: 'Read', tab: { kind: 'tab', tabId: 3 }, fields: [{ name: 'price', type: 'number' }, { name: 'note', type: 'string' }] },
    ]),
    hostile,
  );
  const row = answer.split('\n')[2]!;
  expect(row).toBe('| [\\| \\[x\\](javascript:alert(1)) <img src=x onerror=alert(1)\\> \\`co…](foxagent:tab/3) | — | \\[click\\](https://evil.example) \\| \\*bold\\* |');
  const table = parseMarkdown(answer)[0];
  if (table?.type !== 'table') throw new Error('The answer is not a table.');
  expect(table.header).toHaveLength(3);
  expect(table.rows[0]).toHaveLength(3);
  // No javascript: link, no image, no emphasis: the title and the note are their own characters.
  const cells = JSON.stringify(table.rows[0]);
  expect(cells).not.toMatch(/"href":"javascript|"type":"(strong|em|code)"/);
  const text = (inlines: unknown): string => (Array.isArray(inlines) ? inlines.map((i: { text?: string; children?: unknown }) => i.text ?? text(i.children)).join('') : '');
  expect(text(table.rows[0]![0])).toContain('| [x](javascript:alert(1)) <img src=x onerror=alert(1)> `co…');
  expect(text(table.rows[0]![2])).toBe('[click](https://evil.example) | *bold*');
});

test('steps without fields are listed with their outcome', () => {
  const answer = composeAnswer(
    record(
      [
        { id: 'a', state: 'done', summary: 'Copied the address into the form.' },
        { id: 'b', state: 'failed', reason: 'The login page needs you.' },
      ],
      [
        { id: 'a', goal: 'Copy the address', tab: { kind: 'tab', tabId: 3 }, may: ['interact'] },
        { id: 'b', goal: 'Submit the form', tab: { kind: 'tab', tabId: 7 }, dependsOn: ['a'], may: ['interact'] },
      ],
    ),
    tabs,
  );
  expect(answer).toBe('- Copy the address — Copied the address into the form.\n- Submit the form — failed: The login page needs you.');
});

test('a tab that closes with the plan links to its page instead, an address that cannot end the link early; without a web address it is plain text', () => {
  const closingTabs = new Map([
    ...tabs,
    [12, { title: 'Shop C kettle', url: 'https://shop-c.example/k?q=a) [x](javascript:alert(1)' }],
    [14, { title: 'Local file', url: 'file:///etc/passwd' }],
  ]);
  const answer = composeAnswer(
    record(
      [
        { id: 'a', state: 'done', tabId: 3, fields: { price: 1299, delivery_days: 2 } },
        { id: 'c', state: 'done', tabId: 12, fields: { price: 41, delivery_days: 3 } },
        { id: 'd', state: 'done', tabId: 14, fields: { price: 1, delivery_days: 1 } },
      ],
      [
        { id: 'a', goal: 'Read shop A', tab: { kind: 'tab', tabId: 3 }, fields },
        { id: 'c', goal: 'Read shop C', tab: { kind: 'url', url: 'https://shop-c.example/k' }, fields },
        { id: 'd', goal: 'Read the file', tab: { kind: 'url', url: 'https://shop-d.example/' }, fields },
      ],
    ),
    closingTabs,
    new Set([12, 14]),
  );
  const rows = answer.split('\n').slice(2);
  expect(rows[0]).toBe('| [Kettle – Shop A](foxagent:tab/3) | 1299 | 2 |');
  expect(rows[1]).toBe('| [Shop C kettle](https://shop-c.example/k?q=a%29%20%5Bx%5D%28javascript:alert%281%29) | 41 | 3 |');
  expect(rows[2]).toBe('| Local file | 1 | 1 |');
  // Through the sidebar's own Markdown: one link to the shop's page, nothing else.
  const links = JSON.stringify(parseMarkdown(rows[1]!)).match(/"href":"[^"]*"/g);
  expect(links).toEqual(['"href":"https://shop-c.example/k?q=a%29%20%5Bx%5D%28javascript:alert%281%29"']);
});
