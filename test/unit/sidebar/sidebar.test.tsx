/** @jest-environment jsdom */
/**
 * The sidebar as a user meets it, rendered whole (<App />) against a fake background at the other
 * end of the real port: streaming, Stop, the composer's keys and draft, editing a message, the
 * permission dialog's choices and keyboard, the model picker. Strings are the real `_locales`.
 */
import { background, FakeFailure } from '../../support/fake-extension';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { Conversation } from '../../../src/shared/conversation';
import type { PermissionRequest } from '../../../src/shared/protocol';
import { DEFAULT_SETTINGS } from '../../../src/shared/settings';
import { KEYS } from '../../../src/shared/store';
import { App } from '../../../src/sidebar/App';
import { ARM_DELAY_MS } from '../../../src/sidebar/components/PermissionDialog';
import { conversationToJson, conversationToMarkdown } from '../../../src/sidebar/lib/export';
import { useChat } from '../../../src/sidebar/stores/chat';
import { useDraft } from '../../../src/sidebar/stores/draft';
import { usePermissions } from '../../../src/sidebar/stores/permissions';
import { useSettings } from '../../../src/sidebar/stores/settings';
import { PNG_BASE64 } from '../../support/images';

const conversation = (messages: Conversation['messages'] = [], over: Partial<Conversation> = {}): Conversation => ({ id: 'c1', title: '', createdAt: 1, updatedAt: 1, messages, ...over });
const user = (id: string, content: string) => ({ id, role: 'user' as const, content, createdAt: 1 });
const assistant = (id: string, content: string, status: 'streaming' | 'complete' = 'complete') => ({ id, role: 'assistant' as const, content, status, createdAt: 2 });

let current: Conversation;
beforeEach(() => {
  current = conversation();
  background.requests.length = 0;
  background.storage.clear();
  background.handlers = {
    'conversation/get': () => current,
    'permission/pending': () => [],
    'settings/get': () => ({ ...DEFAULT_SETTINGS, provider: { ...DEFAULT_SETTINGS.provider, model: 'qwen2.5:3b' } }),
    'models/list': () => [{ id: 'qwen2.5:3b', tools: true }, { id: 'phi3:mini', tools: false }],
    'tools/list': () => [{ name: 'read_page', risk: 'read' }, { name: 'click', risk: 'interact' }, { name: 'navigate', risk: 'navigate' }],
    'chat/send': () => ({ messageId: 'a1' }),
    'runs/list': () => [],
    'runs/stop': () => ({ stopped: true }),
    'chat/edit': () => ({ messageId: 'a2' }),
    'permission/answer': () => ({ accepted: true }),
  };
  useChat.setState({ conversation: undefined, notice: undefined, running: false, status: undefined });
  usePermissions.setState({ pending: [], failure: undefined });
  useSettings.setState({ settings: undefined, models: [], listError: undefined, tools: [] });
  useDraft.setState({ text: '' });
});

async function renderApp() {
  const loads = background.sent('conversation/get').length;
  const view = render(<App />);
  await waitFor(() => expect(background.sent('conversation/get')).toHaveLength(loads + 1));
  // Let the first replies (conversation, pending questions, models, tools) render.
  await act(() => new Promise((r) => setTimeout(r, 10)));
  return view;
}
const composer = () => screen.getByTestId('composer') as HTMLTextAreaElement;

describe('streaming and Stop', () => {
  test('an answer grows token by token as Markdown, and Stop asks the background to stop at once', async () => {
    current = conversation([user('u1', 'Summarise'), assistant('a1', '', 'streaming')]);
    await renderApp();
    expect(screen.getByText('Thinking…')).toBeTruthy();
    const seen: string[] = [];
    for (const delta of ['The **page', '** lists', ' three items.']) {
      act(() => background.emit({ type: 'chat/delta', conversationId: 'c1', messageId: 'a1', delta }));
      seen.push(screen.getByTestId('message-assistant').textContent ?? '');
    }
    expect(seen).toEqual([expect.stringContaining('The **page'), expect.stringContaining('The page lists'), expect.stringContaining('The page lists three items.')]);
    expect(screen.getByTestId('message-assistant').querySelector('strong')?.textContent).toBe('page');
    // Reasoning shown first is replaced, not appended to.
    act(() => background.emit({ type: 'chat/delta', conversationId: 'c1', messageId: 'a1', delta: 'Clean answer.', reset: true }));
    expect(screen.getByTestId('message-assistant').textContent).toContain('Clean answer.');
    expect(screen.getByTestId('message-assistant').textContent).not.toContain('three items');

    // Stop goes through the run registry: it stops the run working on this chat, not another's.
    act(() =>
      background.emit({
        type: 'runs/changed',
        runs: [
          { id: 'run-other', origin: 'voice', conversationId: 'c2', startedAt: 1 },
          { id: 'run-1', origin: 'sidebar', conversationId: 'c1', startedAt: 1 },
        ],
      }),
    );
    fireEvent.click(screen.getByTestId('stop'));
    await waitFor(() => expect(background.sent('runs/stop')).toEqual([{ type: 'runs/stop', runId: 'run-1' }]));
    act(() => background.emit({ type: 'conversation/updated', conversation: conversation([user('u1', 'Summarise'), { ...assistant('a1', 'Clean answer.'), status: 'stopped' as never }]) }));
    expect(screen.getByTestId('send')).toBeTruthy();
    expect(screen.getByText('Stopped.')).toBeTruthy();
  });

  test('deltas for another chat are not shown in this one', async () => {
    current = conversation([user('u1', 'Hi'), assistant('a1', 'Hello', 'streaming')]);
    await renderApp();
    act(() => background.emit({ type: 'chat/delta', conversationId: 'other', messageId: 'a1', delta: ' intruder' }));
    expect(screen.getByTestId('message-assistant').textContent).not.toContain('intruder');
  });
});

describe('runs in the chats list', () => {
  test('a chat working in the background (here started by voice) shows as working, and its own Stop stops that run', async () => {
    background.handlers['runs/list'] = () => [{ id: 'run-v', origin: 'voice', conversationId: 'c2', startedAt: 1 }];
    background.handlers['conversation/list'] = () => [
      { id: 'c1', title: 'Open chat', updatedAt: 2, messageCount: 0 },
      { id: 'c2', title: 'Kettles', updatedAt: 1, messageCount: 2 },
    ];
    await renderApp();
    fireEvent.click(screen.getByTestId('toggle-chats'));
    const items = await screen.findAllByTestId('conversation-item');
    expect(items.map((item) => Boolean(within(item).queryByTestId('conversation-working')))).toEqual([false, true]);
    fireEvent.click(within(items[1]!).getByRole('button', { name: 'Stop the work in “Kettles”' }));
    await waitFor(() => expect(background.sent('runs/stop')).toEqual([{ type: 'runs/stop', runId: 'run-v' }]));
    // When the run ends the background says so, and the marker goes.
    act(() => background.emit({ type: 'runs/changed', runs: [] }));
    expect(screen.queryByTestId('conversation-working')).toBeNull();
  });
});

describe('the composer', () => {
  test('Enter sends, Shift+Enter breaks the line, and an empty message is not sent', async () => {
    await renderApp();
    fireEvent.keyDown(composer(), { key: 'Enter' });
    expect(background.sent('chat/send')).toEqual([]);
    fireEvent.change(composer(), { target: { value: 'first line' } });
    fireEvent.keyDown(composer(), { key: 'Enter', shiftKey: true });
    expect(background.sent('chat/send')).toEqual([]);
    fireEvent.change(composer(), { target: { value: 'first line\nsecond line' } });
    fireEvent.keyDown(composer(), { key: 'Enter' });
    await waitFor(() => expect(background.sent('chat/send')).toEqual([{ type: 'chat/send', conversationId: 'c1', text: 'first line\nsecond line' }]));
    expect(composer().value).toBe('');
  });

  test('@ opens the window’s tabs; the keys pick one, All tabs adds the rest, chips can be removed, and the message carries them', async () => {
    background.handlers['tabs/list'] = () => [
      { id: 11, title: 'Kettle at Shop A', url: 'https://shop-a.example/', active: true },
      { id: 12, title: 'Kettle at Shop B', url: 'https://shop-b.example/', active: false },
      { id: 13, title: 'Add-ons', url: 'https://addons.mozilla.org/', active: false, restriction: 'Firefox does not let extensions act on addons.mozilla.org.' },
    ];
    await renderApp();
    const type = (value: string) => fireEvent.change(composer(), { target: { value, selectionStart: value.length } });
    type('Compare @shop');
    const menu = await screen.findByTestId('tab-menu');
    await waitFor(() => expect(within(menu).getAllByTestId('tab-option').map((o) => o.textContent)).toEqual(['All tabs in this window', 'Kettle at Shop A (current)', 'Kettle at Shop B']));
    fireEvent.keyDown(composer(), { key: 'ArrowDown' });
    fireEvent.keyDown(composer(), { key: 'ArrowDown' });
    fireEvent.keyDown(composer(), { key: 'Enter' });
    expect(screen.queryByTestId('tab-menu')).toBeNull();
    expect(composer().value).toBe('Compare ');
    expect(background.sent('chat/send')).toEqual([]);
    expect(screen.getAllByTestId('tab-chip').map((c) => c.textContent)).toEqual(['Kettle at Shop B×']);
    // "All tabs" adds every readable tab once; the one FoxAgent cannot read is shown but not taken.
    type('Compare @');
    const all = await screen.findByTestId('tab-menu');
    await waitFor(() => expect(within(all).getAllByTestId('tab-option').at(-1)!.getAttribute('aria-disabled')).toBe('true'));
    fireEvent.keyDown(composer(), { key: 'Enter' });
    expect(screen.getAllByTestId('tab-chip').map((c) => c.textContent)).toEqual(['Kettle at Shop B×', 'Kettle at Shop A×']);
    fireEvent.click(screen.getByRole('button', { name: 'Remove “Kettle at Shop A”' }));
    type('Compare prices');
    fireEvent.keyDown(composer(), { key: 'Enter' });
    await waitFor(() =>
      expect(background.sent('chat/send')).toEqual([{ type: 'chat/send', conversationId: 'c1', text: 'Compare prices', tabs: [{ id: 12, title: 'Kettle at Shop B', url: 'https://shop-b.example/' }] }]),
    );
    expect(screen.queryByTestId('tab-chip')).toBeNull();
  });

  test('text the background could not take comes back into the composer, with the error shown', async () => {
    background.handlers['chat/send'] = () => {
      throw new FakeFailure({ code: 'bad_request', message: 'FoxAgent is still working on this chat. Stop it first.' });
    };
    await renderApp();
    fireEvent.change(composer(), { target: { value: 'do not lose me' } });
    fireEvent.keyDown(composer(), { key: 'Enter' });
    await waitFor(() => expect(composer().value).toBe('do not lose me'));
    expect(screen.getByRole('alert').textContent).toContain('Stop it first');
  });

  test('the draft is kept in storage and restored when the sidebar opens again', async () => {
    const first = await renderApp();
    fireEvent.change(composer(), { target: { value: 'half-typed thought' } });
    await waitFor(() => expect(background.storage.get(KEYS.draft)).toBe('half-typed thought'));
    first.unmount();
    useDraft.setState({ text: '' });
    await renderApp();
    await waitFor(() => expect(composer().value).toBe('half-typed thought'));
  });
});

describe('editing a message', () => {
  test('a user message is edited in place and resent; Escape cancels', async () => {
    current = conversation([user('u1', 'Capital of France?'), assistant('a1', 'Paris.')]);
    await renderApp();
    fireEvent.click(screen.getByTestId('edit-message'));
    const input = screen.getByTestId('edit-input') as HTMLTextAreaElement;
    expect(input.value).toBe('Capital of France?');
    fireEvent.keyDown(input, { key: 'Escape' });
    expect(screen.queryByTestId('edit-input')).toBeNull();

    fireEvent.click(screen.getByTestId('edit-message'));
    fireEvent.change(screen.getByTestId('edit-input'), { target: { value: 'Capital of Spain?' } });
    fireEvent.keyDown(screen.getByTestId('edit-input'), { key: 'Enter' });
    await waitFor(() => expect(background.sent('chat/edit')).toEqual([{ type: 'chat/edit', conversationId: 'c1', messageId: 'u1', text: 'Capital of Spain?' }]));
    await waitFor(() => expect(screen.queryByTestId('edit-input')).toBeNull());
  });

  test('there is no edit while an answer is running', async () => {
    current = conversation([user('u1', 'Hi'), assistant('a1', '', 'streaming')]);
    await renderApp();
    expect(screen.queryByTestId('edit-message')).toBeNull();
  });
});

describe('the permission dialog', () => {
  const request = (over: Partial<PermissionRequest> = {}): PermissionRequest => ({
    id: 'p1',
    conversationId: 'c1',
    tool: 'click',
    risk: 'interact',
    args: { id: 12, reason: 'to subscribe you' },
    reason: 'to subscribe you',
    origin: 'https://shop.example',
    why: 'interactions ask once per site',
    canAllowAlways: true,
    ...over,
  });

  /** The dialog once its buttons take clicks (they ignore them for a moment after it appears). */
  const armedDialog = async () => {
    const dialog = screen.getByRole('alertdialog');
    await waitFor(() => expect(dialog.getAttribute('data-armed')).toBe('true'), { timeout: ARM_DELAY_MS * 3 });
    return dialog;
  };

  test('a question from another chat does not cover this one: a notice says it waits, and Show opens that chat with its question', async () => {
    await renderApp();
    background.handlers['conversation/get'] = (r) => conversation([], { id: (r as { conversationId?: string }).conversationId ?? 'c1', title: 'Shopping' });
    act(() => background.emit({ type: 'permission/requested', request: request({ id: 'p-other', conversationId: 'c2' }) }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(screen.getByTestId('permission-elsewhere').textContent).toContain('waiting for your answer in another chat (1)');
    fireEvent.click(screen.getByTestId('permission-elsewhere-show'));
    await waitFor(() => expect(background.sent('conversation/get').at(-1)).toEqual({ type: 'conversation/get', conversationId: 'c2' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog.textContent).toContain('click');
    expect(screen.queryByTestId('permission-elsewhere')).toBeNull();
  });

  test('shows what, on what, where, the model’s reason and why; focus starts on the dialog itself; each choice is sent', async () => {
    await renderApp();
    for (const [testId, decision] of [['allow-once', 'allow_once'], ['allow-task', 'allow_task'], ['allow-always', 'allow_always'], ['deny', 'reject_once'], ['deny-always', 'reject_always']] as const) {
      act(() => background.emit({ type: 'permission/requested', request: request({ id: testId, target: 'button “Subscribe” in form “Newsletter”', canAllowTask: true }) }));
      const dialog = screen.getByRole('alertdialog');
      expect(document.activeElement).toBe(dialog);
      await armedDialog();
      expect(within(dialog).getByTestId('permission-target').textContent).toBe('button “Subscribe” in form “Newsletter”');
      expect(within(dialog).getByTestId('allow-task').textContent).toBe('Allow click on https://shop.example for this task');
      expect(dialog.getAttribute('aria-modal')).toBe('true');
      expect(within(dialog).getByTestId('permission-origin').textContent).toBe('https://shop.example');
      expect(within(dialog).getByTestId('permission-reason').textContent).toBe('“to subscribe you”');
      expect(within(dialog).getByTestId('permission-why').textContent).toContain('interactions ask once per site');
      expect(dialog.textContent).toContain('id=12');
      fireEvent.click(within(dialog).getByTestId(testId));
      await waitFor(() => expect(background.sent('permission/answer').at(-1)).toEqual({ type: 'permission/answer', id: testId, decision }));
      expect(screen.queryByRole('alertdialog')).toBeNull();
    }
  });

  test('keys and clicks meant for the composer do not answer a question that just appeared', async () => {
    await renderApp();
    const composer = screen.getByTestId('composer');
    composer.focus();
    act(() => background.emit({ type: 'permission/requested', request: request({ canAllowTask: true }) }));
    const dialog = screen.getByRole('alertdialog');
    // Focus left the composer for the dialog itself, not for a button that Space or Enter would press.
    expect(document.activeElement).toBe(dialog);
    fireEvent.keyDown(dialog, { key: 'Enter' });
    fireEvent.keyDown(dialog, { key: ' ' });
    for (const id of ['allow-once', 'allow-task', 'allow-always']) fireEvent.click(within(dialog).getByTestId(id));
    expect(within(dialog).getByTestId('allow-once').getAttribute('aria-disabled')).toBe('true');
    expect(background.sent('permission/answer')).toEqual([]);
    await armedDialog();
    expect(within(dialog).getByTestId('allow-once').getAttribute('aria-disabled')).toBe('false');
    fireEvent.click(within(dialog).getByTestId('allow-once'));
    await waitFor(() => expect(background.sent('permission/answer')).toEqual([{ type: 'permission/answer', id: 'p1', decision: 'allow_once' }]));
  });

  test('"for this task" is offered only when the background allows it', async () => {
    await renderApp();
    act(() => background.emit({ type: 'permission/requested', request: request({ tool: 'navigate', risk: 'navigate' }) }));
    expect(within(screen.getByRole('alertdialog')).queryByTestId('allow-task')).toBeNull();
  });

  test('a sensitive action opens on Deny, offers no "always allow", and Escape denies it once', async () => {
    await renderApp();
    act(() => background.emit({ type: 'permission/requested', request: request({ tool: 'submit_form', risk: 'sensitive', canAllowAlways: false }) }));
    const dialog = screen.getByRole('alertdialog');
    expect(within(dialog).queryByTestId('allow-always')).toBeNull();
    expect(document.activeElement).toBe(within(dialog).getByTestId('deny'));
    expect(within(dialog).getByTestId('permission-risk').textContent).toMatch(/sensitive/);
    fireEvent.keyDown(dialog, { key: 'Escape' });
    await waitFor(() => expect(background.sent('permission/answer')).toEqual([{ type: 'permission/answer', id: 'p1', decision: 'reject_once' }]));
  });

  test('Tab keeps focus inside the dialog', async () => {
    await renderApp();
    act(() => background.emit({ type: 'permission/requested', request: request() }));
    const dialog = screen.getByRole('alertdialog');
    const buttons = within(dialog).getAllByRole('button');
    buttons.at(-1)!.focus();
    fireEvent.keyDown(dialog, { key: 'Tab' });
    expect(document.activeElement).toBe(buttons[0]);
    fireEvent.keyDown(dialog, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(buttons.at(-1));
  });

  test('a question asked while the sidebar was closed is there when it opens; several wait in turn', async () => {
    background.handlers['permission/pending'] = () => [request(), request({ id: 'p2', tool: 'navigate', risk: 'navigate' })];
    await renderApp();
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog.getAttribute('data-tool')).toBe('click');
    expect(dialog.textContent).toContain('(1 more waiting)');
    // Answered in another window: it goes here too, and the next one shows.
    act(() => background.emit({ type: 'permission/resolved', id: 'p1' }));
    expect(screen.getByRole('alertdialog').getAttribute('data-tool')).toBe('navigate');
  });

  test('an answer that does not reach the background brings the question back with the reason', async () => {
    background.handlers['permission/answer'] = () => {
      throw new FakeFailure({ code: 'disconnected', message: 'FoxAgent’s background restarted. Please try again.' });
    };
    await renderApp();
    act(() => background.emit({ type: 'permission/requested', request: request() }));
    await armedDialog();
    fireEvent.click(screen.getByTestId('allow-once'));
    await waitFor(() => expect(within(screen.getByRole('alertdialog')).getByRole('alert').textContent).toContain('background restarted'));
  });
});

describe('the model picker', () => {
  test('lists the provider’s models, defaults to the settings’ model, and sets this chat’s model', async () => {
    background.handlers['conversation/set-model'] = (r) => (current = { ...current, model: r.model || undefined });
    await renderApp();
    const picker = (await screen.findByTestId('model-picker')) as HTMLSelectElement;
    await waitFor(() => expect([...picker.options].map((o) => o.textContent)).toEqual(['Default (qwen2.5:3b)', 'qwen2.5:3b', 'phi3:mini']));
    expect(screen.getByTestId('tool-badge').textContent).toBe('3 tools');
    expect(screen.getByTestId('tool-badge').getAttribute('title')).toBe('read_page, click, navigate');
    fireEvent.change(picker, { target: { value: 'phi3:mini' } });
    await waitFor(() => expect(background.sent('conversation/set-model')).toEqual([{ type: 'conversation/set-model', conversationId: 'c1', model: 'phi3:mini' }]));
    await waitFor(() => expect(picker.value).toBe('phi3:mini'));
    // That model has no native tools: the badge says the tools go through the text protocol.
    expect(screen.getByTestId('tool-badge').textContent).toBe('3 tools (text protocol)');
  });

  test('when the provider cannot list models the picker still works with the default, and says why', async () => {
    background.handlers['models/list'] = () => {
      throw new FakeFailure({ code: 'server_unreachable', message: 'Cannot reach Ollama at http://127.0.0.1:11434.' });
    };
    await renderApp();
    const picker = screen.getByTestId('model-picker');
    await waitFor(() => expect(picker.getAttribute('title')).toContain('Cannot reach Ollama'));
    expect([...(picker as HTMLSelectElement).options].map((o) => o.value)).toEqual(['']);
  });
});

test('the voice button has its place and says voice input is unavailable until capture is connected', async () => {
  await renderApp();
  const voice = screen.getByTestId('voice') as HTMLButtonElement;
  expect(voice.disabled).toBe(true);
  expect(voice.getAttribute('aria-label')).toBe('Voice input is not available');
});

test('new settings make the model picker list the models again', async () => {
  await renderApp();
  await waitFor(() => expect(background.sent('models/list')).toHaveLength(1));
  background.handlers['models/list'] = () => [{ id: 'gpt-4o-mini', tools: true }];
  background.handlers['settings/get'] = () => ({ ...DEFAULT_SETTINGS, provider: { ...DEFAULT_SETTINGS.provider, kind: 'openai', model: 'gpt-4o-mini' } });
  await act(() => (globalThis as unknown as { browser: { storage: { local: { set(v: object): Promise<void> } } } }).browser.storage.local.set({ settings: {} }));
  await waitFor(() => expect([...(screen.getByTestId('model-picker') as HTMLSelectElement).options].map((o) => o.textContent)).toEqual(['Default (gpt-4o-mini)', 'gpt-4o-mini']));
});

test('a password the agent typed is shown and exported as [redacted], never in clear', async () => {
  const typed = { id: 't1', role: 'tool' as const, createdAt: 3, toolCallId: 'c1', name: 'fill', arguments: { id: 2, text: 'hunter2' }, status: 'done' as const, content: 'Typed.', masked: ['text'] };
  current = conversation([user('u1', 'Sign me in'), typed]);
  await renderApp();
  const row = screen.getByTestId('tool-row');
  expect(row.textContent).toContain('text=[redacted]');
  fireEvent.click(within(row).getByRole('button', { expanded: false }));
  expect(row.textContent).toContain('"text": "[redacted]"');
  expect(row.textContent).not.toContain('hunter2');
  for (const file of [conversationToJson(current), conversationToMarkdown(current)]) {
    expect(file).toContain('[redacted]');
    expect(file).not.toContain('hunter2');
  }
});

test('the status bar shows the mode, step n of the limit and the last action while the agent works', async () => {
  current = conversation([{ ...user('u1', 'Click subscribe'), intent: { kind: 'action', reason: 'asks to act', by: 'rules' } }, assistant('a1', '', 'streaming')]);
  await renderApp();
  expect(screen.queryByTestId('agent-status')).toBeNull();
  act(() => background.emit({ type: 'agent/status', status: { conversationId: 'c1', running: true, step: 2, stepLimit: 10, toolMode: 'xml', lastAction: 'click' } }));
  const bar = screen.getByRole('status');
  expect(within(bar).getByTestId('agent-mode').textContent).toBe('Agent');
  expect(bar.textContent).toContain('Step 2 of 10');
  expect(bar.textContent).toContain('click');
  act(() => background.emit({ type: 'agent/status', status: { conversationId: 'c1', running: false, step: 3, stepLimit: 10 } }));
  expect(screen.queryByTestId('agent-status')).toBeNull();
});

test('a repaired step shows what happened in words, and a compact tool set says so under the message and in the status bar', async () => {
  const repaired = { ...assistant('a1', ''), toolTier: 'compact' as const, repair: { key: 'repairUnknownTool' as const, args: ['tick_box'] } };
  current = conversation([{ ...user('u1', 'Tick the box'), intent: { kind: 'action', reason: 'asks to act', by: 'rules' } }, repaired, { ...assistant('a2', 'Ticked.'), toolTier: 'full' as const }]);
  await renderApp();
  expect(screen.getAllByTestId('repair-note').map((n) => n.textContent)).toEqual(['The model called a tool that does not exist (tick_box); it was asked once to correct the call.']);
  expect(screen.getAllByTestId('tool-tier').map((n) => n.textContent)).toEqual(['This model is offered a compact set of tools.']);
  act(() => background.emit({ type: 'agent/status', status: { conversationId: 'c1', running: true, step: 2, stepLimit: 10, toolTier: 'compact' } }));
  expect(within(screen.getByRole('status')).getByTestId('agent-tool-tier').textContent).toBe('compact tools');
});

test('a tool row shows a returned image as a thumbnail from its own bytes, and structured data as a summary', async () => {
  const hostileAlt = '<img src=x onerror="alert(1)"> chart';
  const shot = {
    id: 't1', role: 'tool' as const, createdAt: 3, toolCallId: 'c1', name: 'screenshot', arguments: {}, status: 'done' as const,
    content: '[image 1: PNG, 1 KB]',
    parts: [
      { type: 'image' as const, mimeType: 'image/png' as const, data: PNG_BASE64, bytes: 70, alt: hostileAlt },
      { type: 'data' as const, value: { price: 12.5, currency: 'EUR' } },
      { type: 'image' as const, mimeType: 'image/jpeg' as const, bytes: 900 },
    ],
  };
  current = conversation([user('u1', 'Look at the chart'), shot]);
  await renderApp();
  const row = screen.getByTestId('tool-row');
  const images = within(row).getAllByTestId('tool-image') as HTMLImageElement[];
  expect(images.map((img) => img.getAttribute('src'))).toEqual([`data:image/png;base64,${PNG_BASE64}`]);
  // The page's words are the image's alt text, never markup.
  expect(images[0]!.getAttribute('alt')).toBe(hostileAlt);
  expect(row.querySelectorAll('img')).toHaveLength(1);
  expect(within(row).getByTestId('tool-data').textContent).toBe('Data: {"price":12.5,"currency":"EUR"}');
  expect(within(row).getByTestId('tool-image-gone').textContent).toBe('[image no longer kept]');
  // The thumbnail opens at full width where it is, and closes again.
  const toggle = within(row).getByTestId('tool-image-toggle');
  expect([toggle.getAttribute('aria-expanded'), images[0]!.className]).toEqual(['false', expect.stringContaining('max-h-24')]);
  fireEvent.click(toggle);
  expect([toggle.getAttribute('aria-expanded'), images[0]!.className]).toEqual(['true', expect.not.stringContaining('max-h-24')]);
  expect(toggle.getAttribute('title')).toBe('Show the image small again');
  fireEvent.click(toggle);
  expect(toggle.getAttribute('aria-expanded')).toBe('false');
});
