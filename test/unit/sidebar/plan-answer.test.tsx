/** @jest-environment jsdom */
/**
 * A plan's composed answer as the sidebar shows it: the background's `composeAnswer` output
 * rendered by the chat's Markdown, tab links as buttons that focus their tab, missing values and
 * their reasons, and a hostile page title that stays text in its cell.
 */
import { fireEvent, render, within } from '@testing-library/react';
import { composeAnswer } from '../../../src/background/plans/compose';
import type { PlanRecord } from '../../../src/shared/plan';
import { Markdown } from '../../../src/sidebar/components/Markdown';
import { TabFocusContext } from '../../../src/sidebar/components/TabLink';

const fields = [
  { name: 'price', type: 'number' as const },
  { name: 'delivery_days', type: 'number' as const },
];
const HOSTILE = 'Kettle | [x](javascript:alert(1)) <img src=x onerror=alert(1)> `code`';

const record: PlanRecord = {
  id: 'p1',
  conversationId: 'c1',
  messageId: 'a1',
  request: 'Compare',
  plan: {
    title: 'Compare',
    steps: [
      { id: 'a', goal: 'Alpha', tab: { kind: 'tab', tabId: 11 }, dependsOn: [], fields, may: [] },
      { id: 'b', goal: 'Beta', tab: { kind: 'tab', tabId: 12 }, dependsOn: [], fields, may: [] },
      { id: 'g', goal: 'Gamma', tab: { kind: 'tab', tabId: 13 }, dependsOn: [], fields, may: [] },
    ],
  },
  status: 'done',
  steps: [
    { id: 'a', state: 'done', tabId: 11, attempts: 1, fields: { price: 39.9, delivery_days: 2 } },
    { id: 'b', state: 'done', tabId: 12, attempts: 1, fields: { price: 34.5, delivery_days: null } },
    { id: 'g', state: 'failed', tabId: 13, attempts: 1, reason: 'The tab was closed.' },
  ],
  readOnly: true,
  openedTabs: [],
  createdAt: 1,
  updatedAt: 2,
};
const tabs = new Map([
  [11, { title: 'Steel kettle 1.7 l – Alpha Kitchen', url: 'https://alpha.example/k' }],
  [12, { title: HOSTILE, url: 'https://beta.example/k' }],
  [13, { title: 'Gamma Store: kettle', url: 'https://gamma.example/k' }],
]);

test('the answer table: each source a tab button, values in their columns, missing values with their reasons, hostile titles as text', () => {
  const focused: number[] = [];
  const { container } = render(
    <TabFocusContext.Provider value={(id) => focused.push(id)}>
      <Markdown source={composeAnswer(record, tabs)} />
    </TabFocusContext.Provider>,
  );
  const table = container.querySelector('table')!;
  const rows = Array.from(table.tBodies[0]!.rows).map((row) => Array.from(row.cells).map((c) => c.textContent));
  expect(Array.from(table.tHead!.rows[0]!.cells).map((c) => c.textContent)).toEqual(['Source', 'price', 'delivery_days']);
  expect(rows).toEqual([
    ['Steel kettle 1.7 l – Alpha Kitchen', '39.9', '2'],
    // Clipped to a label's length, and every character of it shown as it is.
    [`${HOSTILE.slice(0, 59)}…`, '34.5', '—'],
    ['Gamma Store: kettle', '—', '—'],
  ]);
  const buttons = within(table).getAllByTestId('tab-link');
  expect(buttons.map((b) => b.getAttribute('data-tab'))).toEqual(['11', '12', '13']);
  fireEvent.click(buttons[1]!);
  expect(focused).toEqual([12]);
  expect(container.querySelector('img, a, code')).toBeNull();
  expect(container.textContent).toMatch(/Missing: .*delivery_days: not found on the page/);
  expect(container.textContent).toMatch(/Missing: Gamma Store: kettle — price, delivery_days: the step failed: The tab was closed\./);
});
