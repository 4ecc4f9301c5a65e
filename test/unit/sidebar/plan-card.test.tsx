/** @jest-environment jsdom */
/**
 * The plan card as a user meets it, in the whole sidebar (<App />) against a fake background at
 * the other end of the real port: approval with edits (the request carries exactly the edited
 * plan), cancel, the background's validation problems, the live view in each state with Stop,
 * Retry and Resume, a hostile page's words shown as text, tab links, and the hand-over bar.
 */
import { background, FakeFailure } from '../../support/fake-extension';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { Conversation } from '../../../src/shared/conversation';
import type { Plan, PlanRecord, StepStatus } from '../../../src/shared/plan';
import { DEFAULT_SETTINGS } from '../../../src/shared/settings';
import { App } from '../../../src/sidebar/App';
import { useAttach } from '../../../src/sidebar/stores/attach';
import { useChat } from '../../../src/sidebar/stores/chat';
import { useDraft } from '../../../src/sidebar/stores/draft';
import { useHandOvers } from '../../../src/sidebar/stores/handovers';
import { usePermissions } from '../../../src/sidebar/stores/permissions';
import { usePlans } from '../../../src/sidebar/stores/plans';

const PLAN: Plan = {
  title: 'Compare the kettle on three shops',
  steps: [
    { id: 's1', goal: 'Find the kettle price on Shop A', tab: { kind: 'tab', tabId: 11 }, dependsOn: [], fields: [{ name: 'price', type: 'number' }, { name: 'delivery_days', type: 'number' }], may: [] },
    { id: 's2', goal: 'Find the kettle price on Shop B', tab: { kind: 'url', url: 'https://shop-b.example/kettle' }, dependsOn: [], fields: [{ name: 'price', type: 'number' }], may: ['navigate'] },
    { id: 's3', goal: 'Add the cheapest kettle to the cart', tab: { kind: 'from_step', stepId: 's2', field: 'cart_url' }, dependsOn: ['s1', 's2'], fields: [], may: ['interact'] },
  ],
};

function record(over: Partial<PlanRecord> = {}, steps: Partial<StepStatus>[] = []): PlanRecord {
  return {
    id: 'p1',
    conversationId: 'c1',
    messageId: 'a1',
    request: 'Compare the kettle on these shops',
    plan: PLAN,
    status: 'proposed',
    steps: PLAN.steps.map((s, i) => ({ id: s.id, state: 'waiting' as const, attempts: 0, ...steps[i] })),
    readOnly: false,
    openedTabs: [],
    createdAt: 1,
    updatedAt: 1,
    ...over,
  };
}

const conversation = (messages: Conversation['messages']): Conversation => ({ id: 'c1', title: '', createdAt: 1, updatedAt: 1, messages });
const withPlan = (content = 'I made a plan of 3 steps.') =>
  conversation([
    { id: 'u1', role: 'user', content: 'Compare the kettle on these shops', createdAt: 1, plan: true },
    { id: 'a1', role: 'assistant', content, status: 'complete', createdAt: 2, planId: 'p1' },
  ]);

let current: Conversation;
let plans: PlanRecord[];
beforeEach(() => {
  current = withPlan();
  plans = [record()];
  background.requests.length = 0;
  background.storage.clear();
  background.handlers = {
    'conversation/get': () => current,
    'permission/pending': () => [],
    'handover/pending': () => [],
    'settings/get': () => DEFAULT_SETTINGS,
    'models/list': () => [],
    'tools/list': () => [],
    'runs/list': () => [],
    'plan/list': () => plans,
    'tabs/list': () => [
      { id: 11, title: 'Kettle at Shop A', url: 'https://shop-a.example/kettle', active: true },
      { id: 12, title: 'Kettle at Shop C', url: 'https://shop-c.example/item/9', active: false },
    ],
    'tabs/focus': () => ({ focused: true }),
    'chat/send': () => ({ messageId: 'a2' }),
  };
  useChat.setState({ conversation: undefined, notice: undefined, running: false, status: undefined });
  usePermissions.setState({ pending: [], failure: undefined });
  usePlans.setState({ byId: {}, failures: {} });
  useHandOvers.setState({ pending: [], failure: undefined });
  useDraft.setState({ text: '' });
  useAttach.setState({ attached: [], open: [], failure: undefined });
});

async function renderApp() {
  render(<App />);
  await waitFor(() => expect(background.sent('conversation/get')).toHaveLength(1));
  await act(() => new Promise((r) => setTimeout(r, 10)));
}
const card = () => screen.getByTestId('plan-card');
const steps = () => within(card()).getAllByTestId('plan-step');
const stepOf = (id: string) => steps().find((s) => s.getAttribute('data-step') === id)!;
/** The requests the card sent that act on plans, in order. */
const planCommands = () => background.requests.filter((r) => r.type.startsWith('plan/') && r.type !== 'plan/list');

describe('approval', () => {
  test('the card lists each step with its goal, its site, what it may change and the fields it returns', async () => {
    await renderApp();
    await waitFor(() => expect(card().getAttribute('data-status')).toBe('proposed'));
    expect(within(card()).getByTestId('plan-title').textContent).toBe('Compare the kettle on three shops');
    expect(background.sent('plan/list')).toEqual([{ type: 'plan/list', conversationId: 'c1' }]);
    await waitFor(() => expect(within(stepOf('s1')).getByTestId('step-site').textContent).toBe('Kettle at Shop A (https://shop-a.example)'));
    expect(steps().map((s) => within(s).getByTestId('step-goal').textContent)).toEqual(PLAN.steps.map((s) => s.goal));
    expect(within(stepOf('s2')).getByTestId('step-site').textContent).toBe('opens https://shop-b.example');
    expect(within(stepOf('s3')).getByTestId('step-site').textContent).toBe('the page step s2 finds');
    expect(steps().map((s) => within(s).getByTestId('step-may').getAttribute('data-may'))).toEqual(['read', 'navigate', 'interact']);
    expect(within(stepOf('s3')).getByTestId('step-may').textContent).toBe('May change the page (click, type, choose)');
    // "May change the page" stands out from the rest.
    expect(within(stepOf('s3')).getByText('May change the page (click, type, choose)').className).toMatch(/font-semibold/);
    expect(within(stepOf('s1')).getByTestId('step-fields').textContent).toBe('Returns: price, delivery_days');
    expect(within(stepOf('s3')).queryByTestId('step-fields')).toBeNull();
  });

  test('a step’s tab that closed is said to be closed', async () => {
    plans = [record({ plan: { ...PLAN, steps: [{ ...PLAN.steps[0]!, tab: { kind: 'tab', tabId: 99 } }] }, steps: [{ id: 's1', state: 'waiting', attempts: 0 }] })];
    await renderApp();
    await waitFor(() => expect(within(stepOf('s1')).getByTestId('step-site').textContent).toBe('a tab that is no longer open'));
  });

  test('while the tabs cannot be listed, a step’s tab is named by its id, never called closed', async () => {
    background.handlers['tabs/list'] = () => {
      throw new FakeFailure({ code: 'internal', message: 'tabs unavailable' });
    };
    await renderApp();
    await screen.findByTestId('plan-run');
    await act(() => new Promise((r) => setTimeout(r, 20)));
    expect(within(stepOf('s1')).getByTestId('step-site').textContent).toBe('tab 11');
  });

  test('Run without edits approves the plan as proposed: no plan in the request', async () => {
    background.handlers['plan/run'] = () => record({ status: 'running', updatedAt: 2 });
    await renderApp();
    fireEvent.click(await screen.findByTestId('plan-run'));
    await waitFor(() => expect(card().getAttribute('data-status')).toBe('running'));
    expect(planCommands()).toEqual([{ type: 'plan/run', planId: 'p1' }]);
  });

  test('edits (remove, move, reword, another tab, an address) are what plan/run carries, exactly', async () => {
    background.handlers['plan/run'] = (r) => record({ status: 'running', plan: r.plan!, updatedAt: 2 });
    await renderApp();
    fireEvent.click(await screen.findByTestId('plan-edit'));
    expect(screen.getByTestId('plan-edit').getAttribute('aria-pressed')).toBe('true');
    // Remove the cart step, move Shop B's step up, reword it, and point Shop A's step at another tab.
    fireEvent.click(within(stepOf('s3')).getByTestId('step-remove'));
    fireEvent.click(within(stepOf('s2')).getByTestId('step-up'));
    fireEvent.change(within(stepOf('s2')).getByTestId('step-goal-input'), { target: { value: 'Read the price of the 1.7 l kettle on Shop B' } });
    await waitFor(() => expect(within(stepOf('s1')).getAllByRole('option').map((o) => o.textContent)).toContain('Kettle at Shop C (https://shop-c.example)'));
    fireEvent.change(within(stepOf('s1')).getByTestId('step-tab-select'), { target: { value: 'tab:12' } });
    fireEvent.change(within(stepOf('s2')).getByTestId('step-url-input'), { target: { value: 'https://shop-b.example/kettle-1-7' } });
    expect(steps().map((s) => s.getAttribute('data-step'))).toEqual(['s2', 's1']);
    fireEvent.click(screen.getByTestId('plan-run'));
    await waitFor(() => expect(planCommands()).toHaveLength(1));
    expect(planCommands()[0]).toEqual({
      type: 'plan/run',
      planId: 'p1',
      plan: {
        title: PLAN.title,
        steps: [
          { ...PLAN.steps[1], goal: 'Read the price of the 1.7 l kettle on Shop B', tab: { kind: 'url', url: 'https://shop-b.example/kettle-1-7' } },
          { ...PLAN.steps[0], tab: { kind: 'tab', tabId: 12 } },
        ],
      },
    });
  });

  test('a goal emptied cannot be run; Undo edits brings the proposed plan back', async () => {
    await renderApp();
    fireEvent.click(await screen.findByTestId('plan-edit'));
    fireEvent.change(within(stepOf('s1')).getByTestId('step-goal-input'), { target: { value: '' } });
    expect((screen.getByTestId('plan-run') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByTestId('plan-undo-edits'));
    expect((within(stepOf('s1')).getByTestId('step-goal-input') as HTMLTextAreaElement).value).toBe(PLAN.steps[0]!.goal);
    expect((screen.getByTestId('plan-run') as HTMLButtonElement).disabled).toBe(false);
  });

  test('the background’s validation problems are shown, and the card stays for another try', async () => {
    background.handlers['plan/run'] = () => {
      throw new FakeFailure({ code: 'plan_invalid', message: 'Step s1: "ftp://x" is not an http(s) address.' });
    };
    await renderApp();
    fireEvent.click(await screen.findByTestId('plan-edit'));
    fireEvent.change(within(stepOf('s1')).getByTestId('step-tab-select'), { target: { value: 'url' } });
    fireEvent.change(within(stepOf('s1')).getByTestId('step-url-input'), { target: { value: 'ftp://x' } });
    fireEvent.click(screen.getByTestId('plan-run'));
    await waitFor(() => expect(within(card()).getByRole('alert').textContent).toBe('Step s1: "ftp://x" is not an http(s) address.'));
    expect(card().getAttribute('data-status')).toBe('proposed');
    expect(screen.getByTestId('plan-run')).toBeTruthy();
  });

  test('Cancel sends only plan/cancel, and the card says nothing ran', async () => {
    background.handlers['plan/cancel'] = () => record({ status: 'cancelled', updatedAt: 2 });
    await renderApp();
    fireEvent.click(await screen.findByTestId('plan-cancel'));
    await waitFor(() => expect(card().getAttribute('data-status')).toBe('cancelled'));
    expect(planCommands()).toEqual([{ type: 'plan/cancel', planId: 'p1' }]);
    expect(within(card()).getByTestId('plan-status').textContent).toBe('Cancelled: nothing ran.');
    expect(within(card()).queryByTestId('plan-run')).toBeNull();
  });
});

describe('live view', () => {
  const NOW = 1_000_000;
  const live = () =>
    record({ status: 'running', updatedAt: 5 }, [
      { state: 'done', tabId: 11, site: 'https://shop-a.example', startedAt: NOW - 4200, endedAt: NOW - 1000, fields: { price: 39.9, delivery_days: null } },
      { state: 'running', tabId: 31, site: 'https://shop-b.example', startedAt: NOW - 2000, action: 'Reading the page' },
      { state: 'waiting' },
    ]);

  test('progress, each step’s state, action, tab, time and fields (missing shown as missing) follow plan/updated', async () => {
    await renderApp();
    await screen.findByTestId('plan-run');
    act(() => background.emit({ type: 'plan/updated', plan: live() }));
    expect(card().getAttribute('data-status')).toBe('running');
    const bar = within(card()).getByTestId('plan-progress');
    expect([bar.getAttribute('aria-valuenow'), bar.getAttribute('aria-valuemax')]).toEqual(['1', '3']);
    expect(steps().map((s) => [s.getAttribute('data-state'), within(s).getByTestId('step-state').textContent])).toEqual([
      ['done', 'Done'],
      ['running', 'Running'],
      ['waiting', 'Waiting'],
    ]);
    expect(within(stepOf('s1')).getByTestId('step-time').textContent).toBe('3.2 s');
    expect(within(stepOf('s1')).getAllByTestId('step-field').map((f) => [f.getAttribute('data-field'), f.textContent, f.getAttribute('data-missing')])).toEqual([
      ['price', 'price39.9', 'false'],
      ['delivery_days', 'delivery_daysmissing', 'true'],
    ]);
    expect(within(stepOf('s2')).getByTestId('step-action').textContent).toBe('Reading the page');
    // The step's tab is a button that brings it to the front.
    fireEvent.click(within(stepOf('s2')).getByTestId('step-tab'));
    await waitFor(() => expect(background.sent('tabs/focus')).toEqual([{ type: 'tabs/focus', tabId: 31 }]));
    // An older copy of the record (a late reply) does not undo a newer one.
    act(() => background.emit({ type: 'plan/updated', plan: record({ status: 'proposed', updatedAt: 1 }) }));
    expect(card().getAttribute('data-status')).toBe('running');
  });

  test('asking, paused (with what the user must do), failed and skipped (with their reasons); Retry and Stop', async () => {
    plans = [
      record({ status: 'running', updatedAt: 5 }, [
        { state: 'failed', tabId: 11, reason: 'The tab was closed while the step worked in it.', startedAt: 1, endedAt: 2 },
        { state: 'paused', tabId: 31, reason: 'Sign in to Shop B', startedAt: 1 },
        { state: 'skipped', reason: 'Step s1 failed.' },
      ]),
    ];
    background.handlers['plan/retry-step'] = () => record({ status: 'running', updatedAt: 6 }, [{ state: 'running', startedAt: 3 }, { state: 'asking', startedAt: 1 }, { state: 'waiting' }]);
    background.handlers['plan/stop'] = () => record({ status: 'stopped', updatedAt: 7 }, [{ state: 'failed', reason: 'Stopped.' }, { state: 'failed', reason: 'Stopped.' }, { state: 'skipped', reason: 'Stopped.' }]);
    await renderApp();
    await waitFor(() => expect(card().getAttribute('data-status')).toBe('running'));
    expect(within(stepOf('s1')).getByTestId('step-reason').textContent).toBe('Why: The tab was closed while the step worked in it.');
    expect(within(stepOf('s2')).getByTestId('step-reason').textContent).toBe('What to do: Sign in to Shop B');
    expect(within(stepOf('s2')).getByTestId('step-state').textContent).toBe('Paused: needs you');
    expect(within(stepOf('s3')).getByTestId('step-reason').textContent).toBe('Why: Step s1 failed.');
    expect(within(stepOf('s2')).queryByTestId('step-retry')).toBeNull();
    fireEvent.click(within(stepOf('s1')).getByTestId('step-retry'));
    await waitFor(() => expect(stepOf('s2').getAttribute('data-state')).toBe('asking'));
    expect(within(stepOf('s2')).getByTestId('step-state').textContent).toBe('Waiting for your permission');
    fireEvent.click(within(card()).getByTestId('plan-stop'));
    await waitFor(() => expect(card().getAttribute('data-status')).toBe('stopped'));
    expect(within(card()).queryByTestId('plan-stop')).toBeNull();
    expect(planCommands()).toEqual([
      { type: 'plan/retry-step', planId: 'p1', stepId: 's1' },
      { type: 'plan/stop', planId: 'p1' },
    ]);
  });

  test('an interrupted plan offers Resume, which sends plan/resume', async () => {
    plans = [record({ status: 'interrupted', updatedAt: 5 }, [{ state: 'done', fields: { price: 39.9, delivery_days: 2 } }, { state: 'waiting' }, { state: 'waiting' }])];
    background.handlers['plan/resume'] = () => record({ status: 'running', updatedAt: 6 }, [{ state: 'done' }, { state: 'running', startedAt: 1 }, { state: 'waiting' }]);
    await renderApp();
    await waitFor(() => expect(card().getAttribute('data-status')).toBe('interrupted'));
    expect(within(card()).getByTestId('plan-status').textContent).toMatch(/^Interrupted/);
    expect(within(card()).queryByTestId('plan-stop')).toBeNull();
    fireEvent.click(within(card()).getByTestId('plan-resume'));
    await waitFor(() => expect(card().getAttribute('data-status')).toBe('running'));
    expect(planCommands()).toEqual([{ type: 'plan/resume', planId: 'p1' }]);
    expect(within(card()).queryByTestId('plan-resume')).toBeNull();
  });
});

describe('each plan status', () => {
  test.each([
    ['proposed', 'Waiting for your approval. Nothing runs until you press Run.', ['plan-run', 'plan-edit', 'plan-cancel']],
    ['running', 'Running.', ['plan-stop']],
    ['done', 'Finished.', []],
    ['failed', 'Ended with failures.', []],
    ['stopped', 'Stopped.', []],
    ['cancelled', 'Cancelled: nothing ran.', []],
    ['interrupted', 'Interrupted: the extension restarted before the plan finished. Resume goes on from the first unfinished step.', ['plan-resume']],
  ] as const)('%s: says so, and offers only what fits', async (status, words, buttons) => {
    plans = [record({ status })];
    await renderApp();
    await waitFor(() => expect(card().getAttribute('data-status')).toBe(status));
    expect(within(card()).getByTestId('plan-status').textContent).toBe(words);
    const offered = ['plan-run', 'plan-edit', 'plan-cancel', 'plan-stop', 'plan-resume'].filter((id) => within(card()).queryByTestId(id));
    expect(offered).toEqual(buttons);
  });
});

describe('words from pages and models are text', () => {
  const HOSTILE = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=1</script>**bold** [x](javascript:alert(1))';

  test('a hostile title, goal, field value, action and reason render as the characters they are', async () => {
    const hostilePlan: Plan = { title: HOSTILE, steps: [{ ...PLAN.steps[0]!, goal: HOSTILE }, { ...PLAN.steps[1]!, goal: `Shop B ${HOSTILE}` }] };
    plans = [
      record({ plan: hostilePlan, status: 'running', steps: [
        { id: 's1', state: 'done', attempts: 1, fields: { price: HOSTILE, delivery_days: 2 } },
        { id: 's2', state: 'failed', attempts: 1, reason: HOSTILE, action: HOSTILE },
      ] }),
    ];
    await renderApp();
    await waitFor(() => expect(card().getAttribute('data-status')).toBe('running'));
    expect(within(card()).getByTestId('plan-title').textContent).toBe(HOSTILE);
    expect(within(stepOf('s1')).getByTestId('step-goal').textContent).toBe(HOSTILE);
    expect(within(stepOf('s1')).getAllByTestId('step-field')[0]!.textContent).toBe(`price${HOSTILE}`);
    expect(within(stepOf('s2')).getByTestId('step-reason').textContent).toBe(`Why: ${HOSTILE}`);
    expect(card().querySelector('img, script, strong, a')).toBeNull();
    expect((window as unknown as { __pwned?: number }).__pwned).toBeUndefined();
  });
});

describe('tab links in an answer', () => {
  test('a foxagent:tab link is a button that focuses its tab; no other foxagent: address becomes anything', async () => {
    current = conversation([
      { id: 'u1', role: 'user', content: 'Compare', createdAt: 1 },
      { id: 'a9', role: 'assistant', content: '| Source | price |\n|---|---|\n| [Kettle at Shop A](foxagent:tab/11) | 39.9 |\n\n[evil](foxagent:settings/reset) [also](foxagent:tab/11/x)', status: 'complete', createdAt: 2, answerOf: 'p1' },
    ]);
    await renderApp();
    const links = screen.getAllByTestId('tab-link');
    expect(links.map((l) => [l.tagName, l.textContent])).toEqual([['BUTTON', 'Kettle at Shop A']]);
    expect(screen.getByTestId('message-assistant').querySelector('a')).toBeNull();
    expect(screen.getByTestId('message-assistant').textContent).toContain('evil also');
    fireEvent.click(links[0]!);
    await waitFor(() => expect(background.sent('tabs/focus')).toEqual([{ type: 'tabs/focus', tabId: 11 }]));
  });

  test("in a model's answer (a page can steer it) a foxagent:tab link is its label only: no button, nothing focused", async () => {
    current = conversation([
      { id: 'u1', role: 'user', content: 'Summarise this page', createdAt: 1 },
      { id: 'a8', role: 'assistant', content: 'Your session expired: [open your bank](foxagent:tab/7) to sign in again.', status: 'complete', createdAt: 2 },
    ]);
    await renderApp();
    const answer = screen.getByTestId('message-assistant');
    expect(answer.textContent).toContain('open your bank to sign in again');
    expect(screen.queryAllByTestId('tab-link')).toEqual([]);
    expect(answer.querySelector('a, button[data-tab]')).toBeNull();
    fireEvent.click(within(answer).getByText(/open your bank/));
    await new Promise((r) => setTimeout(r, 20));
    expect(background.sent('tabs/focus')).toEqual([]);
  });
});

describe('hand-over', () => {
  test('a task waiting when the sidebar opens, and one handed over later: the need as text, Continue, gone when resolved', async () => {
    background.handlers['handover/pending'] = () => [{ id: 'h1', runId: 'r1', conversationId: 'c1', planId: 'p1', stepId: 's2', tabId: 31, need: 'Sign in to <b>Shop B</b>' }];
    background.handlers['handover/continue'] = () => ({ continued: true });
    await renderApp();
    const bar = await screen.findByTestId('handover');
    expect(within(bar).getByTestId('handover-need').textContent).toBe('FoxAgent needs you: Sign in to <b>Shop B</b>');
    expect(bar.querySelector('b')).toBeNull();
    act(() => background.emit({ type: 'handover/requested', request: { id: 'h2', runId: 'r2', conversationId: 'c2', need: 'Pick a delivery slot' } }));
    expect(screen.getAllByTestId('handover-need').map((n) => n.textContent)).toEqual(['FoxAgent needs you: Sign in to <b>Shop B</b>', 'FoxAgent needs you: Pick a delivery slot']);
    fireEvent.click(within(bar).getByTestId('handover-continue'));
    await waitFor(() => expect(background.sent('handover/continue')).toEqual([{ type: 'handover/continue', id: 'h1' }]));
    act(() => background.emit({ type: 'handover/resolved', id: 'h1' }));
    expect(screen.getAllByTestId('handover-need').map((n) => n.textContent)).toEqual(['FoxAgent needs you: Pick a delivery slot']);
    act(() => background.emit({ type: 'handover/resolved', id: 'h2' }));
    expect(screen.queryByTestId('handover')).toBeNull();
  });

  test('a need a page steered names the site of the tab it brings to the front, as text', async () => {
    await renderApp();
    act(() => background.emit({ type: 'handover/requested', request: { id: 'h3', runId: 'r3', conversationId: 'c1', tabId: 5, site: 'https://evil.example', need: 'Enter your <i>bank</i> password here' } }));
    const need = await screen.findByTestId('handover-need');
    expect(need.textContent).toBe('FoxAgent needs you on https://evil.example: Enter your <i>bank</i> password here');
    expect(need.querySelector('i')).toBeNull();
  });
});

describe('asking for a plan in the composer', () => {
  const composer = () => screen.getByTestId('composer') as HTMLTextAreaElement;
  const sendText = (value: string) => {
    fireEvent.change(composer(), { target: { value } });
    fireEvent.keyDown(composer(), { key: 'Enter' });
  };

  test('the Plan toggle and /plan both send plan: true (the prefix stripped); the toggle is off again after', async () => {
    current = conversation([]);
    await renderApp();
    const toggle = screen.getByTestId('plan-toggle');
    expect(toggle.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-pressed')).toBe('true');
    sendText('Compare the kettle on these tabs');
    await waitFor(() => expect(toggle.getAttribute('aria-pressed')).toBe('false'));
    expect(background.sent('chat/send')).toHaveLength(1);
    sendText('/plan open the first five results and summarise each');
    sendText('just a question');
    await waitFor(() => expect(background.sent('chat/send')).toHaveLength(3));
    expect(background.sent('chat/send')).toEqual([
      { type: 'chat/send', conversationId: 'c1', text: 'Compare the kettle on these tabs', plan: true },
      { type: 'chat/send', conversationId: 'c1', text: 'open the first five results and summarise each', plan: true },
      { type: 'chat/send', conversationId: 'c1', text: 'just a question' },
    ]);
  });

  test('a plan request the background refused comes back into the composer as typed', async () => {
    current = conversation([]);
    background.handlers['chat/send'] = () => {
      throw new FakeFailure({ code: 'bad_request', message: 'FoxAgent is still working on this chat. Stop it first.' });
    };
    await renderApp();
    sendText('/plan compare these tabs');
    await waitFor(() => expect(composer().value).toBe('/plan compare these tabs'));
    expect(background.sent('chat/send')).toEqual([{ type: 'chat/send', conversationId: 'c1', text: 'compare these tabs', plan: true }]);
    // "/plan" alone is no request: nothing is sent.
    sendText('/plan');
    await act(() => new Promise((r) => setTimeout(r, 10)));
    expect(background.sent('chat/send')).toHaveLength(1);
  });
});
