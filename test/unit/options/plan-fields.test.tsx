/** @jest-environment jsdom */
/** The options page's workflow-plan settings: shown as stored, with help, and saved with the rest. */
import { background } from '../../support/fake-extension';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { ProviderForm } from '../../../src/options/ProviderForm';
import { DEFAULT_SETTINGS, SettingsSchema, type Settings } from '../../../src/shared/settings';

let stored: Settings;
beforeEach(() => {
  stored = { ...DEFAULT_SETTINGS, provider: { ...DEFAULT_SETTINGS.provider, model: 'qwen2.5:3b' }, plans: { runReadOnlyWithoutAsking: false, keepOpenedTabs: true, concurrency: 2 } };
  background.requests.length = 0;
  background.handlers = {
    'settings/get': () => stored,
    'settings/save': (r) => (stored = SettingsSchema.parse(r.settings)),
  };
});

test('the three plan settings show what is stored, with help, and Save sends the new values with the rest', async () => {
  const before = stored;
  render(<ProviderForm />);
  const readOnly = (await screen.findByTestId('plans-read-only')) as HTMLInputElement;
  const keep = screen.getByTestId('plans-keep-tabs') as HTMLInputElement;
  const concurrency = screen.getByTestId('plans-concurrency') as HTMLSelectElement;
  expect([readOnly.checked, keep.checked, concurrency.value]).toEqual([false, true, '2']);
  expect(Array.from(concurrency.options).map((o) => o.value)).toEqual(['1', '2', '3', '4', '5']);
  expect(screen.getByRole('checkbox', { name: 'Run plans that only read without asking' })).toBe(readOnly);
  expect(document.getElementById(concurrency.getAttribute('aria-describedby')!)?.textContent).toContain('(1 to 5)');
  expect(document.getElementById(readOnly.getAttribute('aria-describedby')!)?.textContent).toMatch(/always waits for your approval/);

  fireEvent.click(readOnly);
  fireEvent.click(keep);
  fireEvent.change(concurrency, { target: { value: '5' } });
  fireEvent.click(screen.getByTestId('save'));
  await waitFor(() => expect(background.sent('settings/save')).toHaveLength(1));
  const [saved] = background.sent('settings/save');
  expect(saved!.settings.plans).toEqual({ runReadOnlyWithoutAsking: true, keepOpenedTabs: false, concurrency: 5 });
  // Nothing else changed on the way.
  expect({ ...saved!.settings, plans: undefined }).toEqual({ ...before, plans: undefined });
});
