/** @jest-environment jsdom */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ModelInfo, SerializedError, UiToBgRequest } from '../../../src/shared/protocol';
import { DEFAULT_SETTINGS, SettingsSchema, type Settings } from '../../../src/shared/settings';

// The real port needs an extension context; the form talks to this fake background instead.
jest.mock('../../../src/ui/port', () => {
  class RequestError extends Error {
    constructor(readonly detail: SerializedError) {
      super(detail.message);
    }
  }
  return { RequestError, backgroundPort: { request: jest.fn() } };
});

type PortModule = typeof import('../../../src/ui/port');
const port = jest.requireMock<PortModule>('../../../src/ui/port');
let ProviderForm: typeof import('../../../src/options/ProviderForm').ProviderForm;

/** `browser.i18n.getMessage` over the real English catalogue, placeholders included. */
type Catalogue = Record<string, { message: string; placeholders?: Record<string, { content: string }> }>;
const catalogue = JSON.parse(readFileSync(path.join(__dirname, '../../../_locales/en/messages.json'), 'utf8')) as Catalogue;
function getMessage(key: string, substitutions?: string | string[]): string {
  const entry = catalogue[key];
  if (!entry) return '';
  const subs = substitutions === undefined ? [] : ([] as string[]).concat(substitutions);
  return entry.message
    .replace(/\$(\w+)\$/g, (_, name: string) => entry.placeholders?.[name.toLowerCase()]?.content ?? '')
    .replace(/\$(\d)/g, (_, n: string) => subs[Number(n) - 1] ?? '');
}

/** What the fake background holds and answers. */
let stored: Settings;
let listing: ModelInfo[] | SerializedError;
let requests: UiToBgRequest[];

function fakeRequest(body: UiToBgRequest): Promise<unknown> {
  requests.push(JSON.parse(JSON.stringify(body)) as UiToBgRequest);
  switch (body.type) {
    case 'settings/get':
      return Promise.resolve(stored);
    case 'settings/save':
      stored = SettingsSchema.parse(body.settings); // the background validates the same way
      return Promise.resolve(stored);
    case 'models/list':
      return Array.isArray(listing) ? Promise.resolve(listing) : Promise.reject(new port.RequestError(listing));
    default:
      return Promise.reject(new Error(`unexpected request ${body.type}`));
  }
}

const saved = () => requests.filter((r): r is Extract<UiToBgRequest, { type: 'settings/save' }> => r.type === 'settings/save').map((r) => r.settings);
const el = <T extends HTMLElement>(testId: string) => screen.getByTestId(testId) as T;
const statusText = () => el('settings-status').textContent;

async function renderForm(settings: Partial<Settings> = {}, provider: Partial<Settings['provider']> = {}) {
  stored = { ...DEFAULT_SETTINGS, ...settings, provider: { ...DEFAULT_SETTINGS.provider, ...provider } };
  render(<ProviderForm />);
  await waitFor(() => expect(el<HTMLInputElement>('base-url').value).toBe(stored.provider.baseUrl));
}

async function testConnection() {
  await act(async () => {
    fireEvent.click(el('test-connection'));
  });
  await waitFor(() => expect(el('settings-status').dataset.state).toMatch(/^(tested|error)$/));
}

beforeAll(() => {
  (globalThis as unknown as { browser: unknown }).browser = { i18n: { getMessage } };
  // Loaded after jest.mock above (the esbuild transform does not hoist it), so the form gets the fake port.
  ({ ProviderForm } = jest.requireActual<typeof import('../../../src/options/ProviderForm')>('../../../src/options/ProviderForm'));
});
beforeEach(() => {
  requests = [];
  listing = [];
  jest.mocked(port.backgroundPort.request).mockImplementation(fakeRequest as PortModule['backgroundPort']['request']);
});
afterEach(cleanup);

test('the API key is masked until Show is pressed, and Hide masks it again', async () => {
  await renderForm({}, { kind: 'openai', baseUrl: 'https://api.openai.com/v1', apiKey: 'sk-secret-42' });
  const key = el<HTMLInputElement>('api-key');
  const toggle = el('toggle-key');
  expect(key.value).toBe('sk-secret-42');
  expect(key.type).toBe('password');
  expect(toggle.getAttribute('aria-pressed')).toBe('false');
  expect(toggle.textContent).toBe('Show');

  fireEvent.click(toggle);
  expect(key.type).toBe('text');
  expect(toggle.getAttribute('aria-pressed')).toBe('true');
  expect(toggle.textContent).toBe('Hide');
  expect(toggle.getAttribute('aria-controls')).toBe(key.id);

  fireEvent.click(toggle);
  expect(key.type).toBe('password');
  expect(screen.getByText(/local extension storage/)).toBeTruthy();
});

test('the API key never reaches the console while saving and testing', async () => {
  const spies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((m) => jest.spyOn(console, m).mockImplementation(() => undefined));
  try {
    await renderForm({}, { kind: 'openai-compatible', baseUrl: 'http://127.0.0.1:1234/v1', apiKey: 'sk-never-logged', model: 'x' });
    listing = { code: 'unauthorized', message: 'The server refused the API key.' };
    await testConnection();
    expect(saved()[0]!.provider.apiKey).toBe('sk-never-logged');
    const logged = JSON.stringify(spies.flatMap((s) => s.mock.calls));
    expect(logged).not.toContain('sk-never-logged');
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
});

test.each<[string, boolean | undefined, string]>([
  ['supports tools', true, 'Connected: 3 models found. “qwen3:8b” is on the server and supports tools.'],
  ['has no native tools', false, 'Connected: 3 models found. “qwen3:8b” is on the server, with no native tools: FoxAgent will use the text tool-call protocol.'],
  ['does not say about tools', undefined, 'Connected: 3 models found. “qwen3:8b” is on the server; tool support unknown until first use.'],
])('Test connection with a chosen model that %s says so in the status', async (_case, tools, expected) => {
  await renderForm({}, { model: 'qwen3:8b' });
  listing = [{ id: 'llama3.2:3b', tools: true }, { id: 'qwen3:8b', tools }, { id: 'gemma3:4b', tools: false }];
  await testConnection();
  expect(statusText()).toBe(expected);
  expect(el('settings-status').className).not.toContain('text-error');
  // The second settings/get reads the voice settings as stored now, so this save keeps them.
  expect(requests.map((r) => r.type)).toEqual(['settings/get', 'settings/get', 'settings/save', 'models/list']);
});

test('Test connection with a model the server lacks says so and names up to five of its models', async () => {
  await renderForm({}, { model: 'mistral:7b' });
  listing = ['m1', 'm2', 'm3', 'm4', 'm5', 'm6', 'm7'].map((id) => ({ id }));
  await testConnection();
  expect(statusText()).toBe('Connected: 7 models found. “mistral:7b” is not on this server. Found: m1, m2, m3, m4, m5, ….');
  expect(statusText()).not.toContain('m6');
  expect(el('settings-status').className).toContain('text-error');
});

test('Test connection that fails shows the background’s message and hint, and offers no models', async () => {
  await renderForm({}, { model: 'llama3.2:3b' });
  listing = { code: 'unreachable', message: 'Cannot reach the Ollama server at http://127.0.0.1:11434.', hint: 'Start it with `ollama serve`.' };
  await testConnection();
  expect(statusText()).toBe('Cannot reach the Ollama server at http://127.0.0.1:11434. Start it with `ollama serve`.');
  expect(el('settings-status').className).toContain('text-error');
  expect(screen.queryByTestId('model-choice')).toBeNull();
});

test('after a successful test the found models are offered, and picking one makes it the default', async () => {
  await renderForm();
  listing = [{ id: 'llama3.2:3b', tools: true }, { id: 'deepseek-r1:8b', tools: false }];
  await testConnection();
  expect(statusText()).toBe('Connected: 2 models found. Choose a default model below.');
  const choice = el<HTMLSelectElement>('model-choice');
  expect(Array.from(choice.options).filter((o) => o.value).map((o) => o.value)).toEqual(['llama3.2:3b', 'deepseek-r1:8b']);

  fireEvent.change(choice, { target: { value: 'deepseek-r1:8b' } });
  expect(el<HTMLInputElement>('model').value).toBe('deepseek-r1:8b');
  expect(statusText()).toContain('“deepseek-r1:8b” is on the server, with no native tools');

  await act(async () => {
    fireEvent.click(el('save'));
  });
  await waitFor(() => expect(statusText()).toBe('Settings saved.'));
  expect(stored.provider.model).toBe('deepseek-r1:8b');
});

test('saving the provider keeps the voice settings the voice section saved after this form loaded', async () => {
  await renderForm({}, { kind: 'openai-compatible', baseUrl: 'http://127.0.0.1:1234/v1' });
  // Meanwhile the voice section (its own form on the page) saved a whisper.cpp server.
  stored = { ...stored, voice: { ...stored.voice, provider: 'whisper-cpp', baseUrl: 'http://127.0.0.1:8080', sendOnStop: false } };
  fireEvent.change(el('step-limit'), { target: { value: '12' } });
  await act(async () => void fireEvent.click(el('save')));
  await waitFor(() => expect(saved()).toHaveLength(1));
  expect(saved()[0]!.stepLimit).toBe(12);
  expect(saved()[0]!.voice).toMatchObject({ provider: 'whisper-cpp', baseUrl: 'http://127.0.0.1:8080', sendOnStop: false });
});

test('tool-call mode and step limit are sent with settings/save', async () => {
  await renderForm({ toolCallMode: 'auto', stepLimit: 10 });
  const mode = el<HTMLSelectElement>('tool-call-mode');
  const steps = el<HTMLInputElement>('step-limit');
  expect(Array.from(mode.options).map((o) => o.value)).toEqual(['auto', 'native', 'constrained', 'xml']);
  expect(el('tool-call-mode-help').textContent).toMatch(/schema-constrained JSON when the server rejects them; the text protocol when it rejects that too/);
  expect(mode.options[2]!.textContent).toBe('JSON (schema-constrained)');
  expect([steps.min, steps.max, steps.value]).toEqual(['1', '25', '10']);

  fireEvent.change(mode, { target: { value: 'constrained' } });
  expect(el('tool-call-mode-help').textContent).toMatch(/constrains each reply to a JSON object/);
  fireEvent.change(mode, { target: { value: 'xml' } });
  fireEvent.change(steps, { target: { value: '7' } });
  expect(el('tool-call-mode-help').textContent).toMatch(/XML in its answer/);
  await act(async () => {
    fireEvent.click(el('save'));
  });
  await waitFor(() => expect(statusText()).toBe('Settings saved.'));
  expect(saved()).toHaveLength(1);
  expect(saved()[0]).toMatchObject({ toolCallMode: 'xml', stepLimit: 7 });
  expect(stored).toMatchObject({ toolCallMode: 'xml', stepLimit: 7 });
});

test('a context window set for the chosen model is saved for that model only; emptied, it goes back to what the server says', async () => {
  await renderForm({ modelContext: { 'other:7b': 2048 } }, { model: 'qwen2.5:3b' });
  const field = el<HTMLInputElement>('context-window');
  expect(field.value).toBe('');
  fireEvent.change(field, { target: { value: '4096' } });
  await act(async () => {
    fireEvent.click(el('save'));
  });
  await waitFor(() => expect(statusText()).toBe('Settings saved.'));
  expect(saved()[0]!.modelContext).toEqual({ 'other:7b': 2048, 'qwen2.5:3b': 4096 });
  fireEvent.change(el('context-window'), { target: { value: '' } });
  await act(async () => {
    fireEvent.click(el('save'));
  });
  await waitFor(() => expect(saved()).toHaveLength(2));
  expect(saved()[1]!.modelContext).toEqual({ 'other:7b': 2048 });
});

test('the tool set chosen for the model is saved for that model only; back on automatic, it is chosen by size again', async () => {
  await renderForm({ modelToolTier: { 'other:70b': 'compact' } }, { model: 'qwen2.5:3b' });
  const field = el<HTMLSelectElement>('tool-tier');
  expect(field.value).toBe('auto');
  expect(screen.getByText('Tools offered to qwen2.5:3b')).toBeTruthy();
  expect([...field.options].map((o) => o.textContent)).toEqual(['By the model\'s size (compact up to 8B)', 'Compact: the main tools, more on request', 'Full: every tool']);
  fireEvent.change(field, { target: { value: 'full' } });
  await act(async () => {
    fireEvent.click(el('save'));
  });
  await waitFor(() => expect(statusText()).toBe('Settings saved.'));
  expect(saved()[0]!.modelToolTier).toEqual({ 'other:70b': 'compact', 'qwen2.5:3b': 'full' });
  fireEvent.change(el('tool-tier'), { target: { value: 'auto' } });
  await act(async () => {
    fireEvent.click(el('save'));
  });
  await waitFor(() => expect(saved()).toHaveLength(2));
  expect(saved()[1]!.modelToolTier).toEqual({ 'other:70b': 'compact' });
});

test('whether the chosen model reads images is saved for that model only; back to “as detected”, the setting goes', async () => {
  await renderForm({ modelVision: { 'other:7b': false } }, { model: 'my-vision-model' });
  const field = el<HTMLSelectElement>('model-vision');
  expect(field.value).toBe('detected');
  expect(Array.from(field.options, (o) => o.textContent)).toEqual(['As detected (as the server says)', 'It reads images', 'Text only']);
  fireEvent.change(field, { target: { value: 'yes' } });
  await act(async () => {
    fireEvent.click(el('save'));
  });
  await waitFor(() => expect(statusText()).toBe('Settings saved.'));
  expect(saved()[0]!.modelVision).toEqual({ 'other:7b': false, 'my-vision-model': true });
  fireEvent.change(el('model-vision'), { target: { value: 'detected' } });
  await act(async () => {
    fireEvent.click(el('save'));
  });
  await waitFor(() => expect(saved()).toHaveLength(2));
  expect(saved()[1]!.modelVision).toEqual({ 'other:7b': false });
});

test('a step limit outside the schema’s bounds is refused before anything is saved', async () => {
  await renderForm();
  fireEvent.change(el('step-limit'), { target: { value: '30' } });
  await act(async () => {
    fireEvent.click(el('test-connection'));
  });
  expect(statusText()).toBe('The step limit must be a whole number from 1 to 25.');
  expect(saved()).toEqual([]);
  expect(requests.some((r) => r.type === 'models/list')).toBe(false);
});

test('every label, option and note is translated', async () => {
  await renderForm();
  listing = [{ id: 'llama3.2:3b' }];
  await testConnection();
  const texts = Array.from(document.body.querySelectorAll('label, option, button, span, p, h2')).flatMap((node) => [
    ...Array.from(node.childNodes).filter((c) => c.nodeType === Node.TEXT_NODE).map((c) => c.textContent ?? ''),
    node.getAttribute('placeholder') ?? '',
    node.getAttribute('title') ?? '',
  ]);
  const inputs = Array.from(document.body.querySelectorAll('input')).map((i) => i.placeholder);
  expect(texts.filter(Boolean).length).toBeGreaterThan(20);
  // An untranslated string renders as its key (camelCase or snake_case, no spaces); none may remain.
  for (const text of [...texts, ...inputs].map((s) => s.trim()).filter(Boolean)) expect(text).not.toMatch(/^[a-z]+([A-Z_]\w*)$/);
});

describe('a new server and the stored key', () => {
  const oldServer = { kind: 'openai-compatible' as const, baseUrl: 'http://127.0.0.1:1234/v1', apiKey: 'sk-for-old-server', model: 'x' };
  const changeUrl = (url: string) => fireEvent.change(el('base-url'), { target: { value: url } });
  const submit = () => act(async () => void fireEvent.click(el('save')));

  test('changing the base URL asks first, saying the key will be removed; Cancel saves nothing', async () => {
    await renderForm({}, oldServer);
    changeUrl('http://127.0.0.1:9999/v1');
    await submit();
    const question = el('key-removal');
    expect(question.getAttribute('role')).toBe('alertdialog');
    expect(question.textContent).toMatch(/API key will be removed/);
    expect(question.textContent).toContain('http://127.0.0.1:1234/v1');
    expect(saved()).toEqual([]);
    await act(async () => void fireEvent.click(el('key-removal-cancel')));
    expect(screen.queryByTestId('key-removal')).toBeNull();
    expect(saved()).toEqual([]);
    expect(el<HTMLInputElement>('base-url').value).toBe('http://127.0.0.1:9999/v1');
  });

  test('confirming saves the new server without the key, and the key field is empty after', async () => {
    await renderForm({}, oldServer);
    changeUrl('http://127.0.0.1:9999/v1');
    await submit();
    await act(async () => void fireEvent.click(el('key-removal-confirm')));
    await waitFor(() => expect(saved()).toHaveLength(1));
    expect(saved()[0]!.provider).toMatchObject({ baseUrl: 'http://127.0.0.1:9999/v1', apiKey: '' });
    await waitFor(() => expect(el<HTMLInputElement>('api-key').value).toBe(''));
  });

  test('changing the provider asks the same way, also before Test connection', async () => {
    await renderForm({}, oldServer);
    fireEvent.change(el('provider-kind'), { target: { value: 'openrouter' } });
    await act(async () => void fireEvent.click(el('test-connection')));
    expect(el('key-removal').textContent).toMatch(/API key will be removed/);
    expect(requests.map((r) => r.type)).toEqual(['settings/get']);
    listing = [{ id: 'x', tools: true }];
    await act(async () => void fireEvent.click(el('key-removal-confirm')));
    await waitFor(() => expect(requests.map((r) => r.type)).toEqual(['settings/get', 'settings/get', 'settings/save', 'models/list']));
    expect(saved()[0]!.provider).toMatchObject({ kind: 'openrouter', apiKey: '' });
  });

  test('a key typed for the new server is saved with it, without asking', async () => {
    await renderForm({}, oldServer);
    changeUrl('http://127.0.0.1:9999/v1');
    fireEvent.change(el('api-key'), { target: { value: 'sk-for-new-server' } });
    await submit();
    expect(screen.queryByTestId('key-removal')).toBeNull();
    await waitFor(() => expect(saved()).toHaveLength(1));
    expect(saved()[0]!.provider).toMatchObject({ baseUrl: 'http://127.0.0.1:9999/v1', apiKey: 'sk-for-new-server' });
  });

  test('with no key stored, a new server is saved without asking', async () => {
    await renderForm({}, { ...oldServer, apiKey: '' });
    changeUrl('http://127.0.0.1:9999/v1');
    await submit();
    expect(screen.queryByTestId('key-removal')).toBeNull();
    await waitFor(() => expect(saved()).toHaveLength(1));
  });
});
