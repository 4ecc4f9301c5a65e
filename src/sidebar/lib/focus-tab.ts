import { backgroundPort } from '../../ui/port';

/** Brings a tab to the front, in its window. A tab that closed meanwhile is simply not there. */
export async function focusTab(tabId: number): Promise<void> {
  await backgroundPort.request({ type: 'tabs/focus', tabId }).catch(() => undefined);
}
