/** Drives FoxAgent's sidebar page (opened in a tab) the way a user does, for e2e tests. */
import type { Page } from 'puppeteer-core';
import type { Settings } from '../../src/shared/settings';
import { DEFAULT_SETTINGS } from '../../src/shared/settings';
import { waitFor, type FoxAgentBrowser } from './firefox';

export type ProviderPatch = Partial<Settings['provider']> & { toolCallMode?: Settings['toolCallMode']; requestTimeoutMs?: number; stepLimit?: number };

/** Writes settings the way the options page does (through storage), then reloads nothing. */
export async function configure(page: Page, patch: ProviderPatch): Promise<void> {
  const { toolCallMode, requestTimeoutMs, stepLimit, ...provider } = patch;
  const settings: Settings = {
    ...DEFAULT_SETTINGS,
    ...(toolCallMode ? { toolCallMode } : {}),
    ...(requestTimeoutMs ? { requestTimeoutMs } : {}),
    ...(stepLimit ? { stepLimit } : {}),
    provider: { ...DEFAULT_SETTINGS.provider, ...provider },
  };
  await page.evaluate(async (s) => {
    await (globalThis as unknown as { browser: { storage: { local: { set(v: object): Promise<void> } } } }).browser.storage.local.set({ settings: s });
  }, settings);
}

/** Sends one request over the sidebar's own Port, as the page's code does, and returns the reply. */
export function portRequest(page: Page, body: object): Promise<{ value?: unknown; error?: unknown }> {
  return page.evaluate(
    (b) =>
      new Promise((resolve) => {
        const api = (globalThis as unknown as { browser: { runtime: { connect(o: object): { postMessage(m: unknown): void; onMessage: { addListener(f: (m: { kind: string; id: number }) => void): void }; disconnect(): void } } } }).browser;
        const port = api.runtime.connect({ name: 'sidebar' });
        port.onMessage.addListener((message) => {
          if (message.kind !== 'reply' || message.id !== 424242) return;
          port.disconnect();
          resolve(message);
        });
        port.postMessage({ kind: 'request', id: 424242, body: b });
      }),
    body,
  ) as Promise<{ value?: unknown; error?: unknown }>;
}

export class SidebarDriver {
  constructor(readonly page: Page) {}

  static async open(ff: FoxAgentBrowser): Promise<SidebarDriver> {
    const page = await ff.openExtensionPage('sidebar.html');
    await page.waitForSelector('[data-testid="composer"]');
    return new SidebarDriver(page);
  }

  async newChat(): Promise<void> {
    const before = await this.page.$$eval('[data-testid^="message-"], [data-testid="tool-row"]', (els) => els.length);
    await this.press('[data-testid="new-chat"]');
    if (before) await waitFor(() => this.page.$$eval('[data-testid^="message-"], [data-testid="tool-row"]', (els) => els.length === 0), { what: 'an empty new chat' });
  }

  /**
   * Activates a button. The sidebar tab is usually in the background, where a pointer click waits
   * many seconds for a paint and a key press does not activate buttons (the document has no
   * focus); so the button is clicked from script, which runs the same handlers.
   */
  async press(selector: string): Promise<void> {
    await this.page.$eval(selector, (el) => (el as HTMLElement).click());
  }

  /**
   * Types `text` and presses Enter. The sidebar tab is usually in the background (the page under
   * test is the active tab), where Firefox paints rarely and each pointer or key action waits for
   * a frame; so the composer is focused by script, all but the last character go in as one input
   * event, and the last character and Enter are real key presses.
   */
  async send(text: string): Promise<void> {
    await this.typeAll(text);
    await this.page.keyboard.press('Enter');
  }

  /** Puts `text` in the composer: all but the last character as one input event, the last as a real key press. */
  private async typeAll(text: string): Promise<void> {
    await this.page.focus('[data-testid="composer"]');
    await this.page.$eval(
      '[data-testid="composer"]',
      (el, head) => {
        const area = el as HTMLTextAreaElement;
        Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')!.set!.call(area, head);
        area.dispatchEvent(new Event('input', { bubbles: true }));
      },
      text.slice(0, -1),
    );
    await this.page.type('[data-testid="composer"]', text.slice(-1));
  }

  /**
   * Attaches a tab the way a user does: types `@` and `query` after what the composer holds (the
   * last character as a real key press, so the menu opens from typing), then picks the option
   * whose text contains `option` ("All tabs in this window" too) and waits for its chip.
   */
  async attachTab(query: string, option: string): Promise<void> {
    const chips = await this.page.$$eval('[data-testid="tab-chip"]', (els) => els.length);
    const typed = await this.page.$eval('[data-testid="composer"]', (el) => (el as HTMLTextAreaElement).value);
    await this.typeAll(`${typed}${typed && !typed.endsWith(' ') ? ' ' : ''}@${query}`);
    await waitFor(
      () =>
        this.page.$$eval(
          '[data-testid="tab-option"]',
          (els, wanted) => {
            const hit = els.find((el) => el.textContent?.includes(wanted) && el.getAttribute('aria-disabled') !== 'true');
            hit?.dispatchEvent(new MouseEvent('mousedown', { bubbles: true, cancelable: true }));
            return Boolean(hit);
          },
          option,
        ),
      { what: `the @ menu to offer “${option}”` },
    );
    await waitFor(() => this.page.$$eval('[data-testid="tab-chip"]', (els, before) => els.length > before, chips), { what: 'the tab’s chip' });
  }

  assistantTexts(): Promise<string[]> {
    return this.page.$$eval('[data-testid="message-assistant"] [data-testid="message-text"]', (els) => els.map((e) => (e as HTMLElement).innerText.trim()));
  }

  userTexts(): Promise<string[]> {
    return this.page.$$eval('[data-testid="message-user"] [data-testid="message-text"]', (els) => els.map((e) => e.textContent ?? ''));
  }

  /** Waits until an assistant message contains `text`; returns its full text. */
  async waitForAnswer(text: string | RegExp, timeoutMs = 20_000): Promise<string> {
    const found = await waitFor(
      async () => (await this.assistantTexts()).find((t) => (typeof text === 'string' ? t.includes(text) : text.test(t))),
      { timeoutMs, what: `an answer containing ${String(text)}` },
    );
    return found ?? '';
  }

  async waitForIdle(timeoutMs = 30_000): Promise<void> {
    await waitFor(() => this.page.$('[data-testid="send"]').then(Boolean), { timeoutMs, what: 'the agent to finish' });
  }

  errorText(): Promise<string> {
    return waitFor(() => this.page.$$eval('[role="alert"]', (els) => els.map((e) => e.textContent ?? '').join('\n')), { what: 'an error in the chat' });
  }

  toolRows(): Promise<{ tool: string; status: string }[]> {
    return this.page.$$eval('[data-testid="tool-row"]', (els) => els.map((e) => ({ tool: e.getAttribute('data-tool') ?? '', status: e.getAttribute('data-status') ?? '' })));
  }

  /** The permission dialog asking about `tool`. */
  static question(tool: string): string {
    return `[data-testid="permission-dialog"][data-tool="${tool}"]`;
  }

  /** Waits for the question about `tool` and reads what it shows the user. */
  async readQuestion(tool: string): Promise<{ why: string; reason: string; target: string; risk: string; canAlways: boolean; canAllowTask: boolean }> {
    const dialog = SidebarDriver.question(tool);
    await this.page.waitForSelector(`${dialog} [data-testid="allow-once"]`, { timeout: 20_000 });
    return this.page.$eval(dialog, (el) => {
      const text = (id: string) => el.querySelector(`[data-testid="${id}"]`)?.textContent ?? '';
      return {
        why: text('permission-why'),
        reason: text('permission-reason'),
        target: text('permission-target'),
        risk: el.getAttribute('data-risk') ?? '',
        canAlways: Boolean(el.querySelector('[data-testid="allow-always"]')),
        canAllowTask: Boolean(el.querySelector('[data-testid="allow-task"]')),
      };
    });
  }

  /**
   * Answers the permission request shown for `tool`, once its buttons take clicks (a new question
   * ignores them for a moment, as a person's stray key presses must not answer it).
   */
  async answerPermission(tool: string, choice: 'allow-once' | 'allow-task' | 'allow-always' | 'deny'): Promise<void> {
    const selector = `${SidebarDriver.question(tool)}:not([data-armed="false"]) [data-testid="${choice}"]`;
    await this.page.waitForSelector(selector, { timeout: 20_000 });
    await this.press(selector);
  }

  /**
   * Answers every permission request with "Allow once" until stopped, the way a user who trusts
   * the task clicks through; returns the tools it allowed, in order.
   */
  allowEverything(): { stop(): Promise<string[]> } {
    const allowed: string[] = [];
    let running = true;
    const loop = (async () => {
      while (running) {
        const tool = await this.page
          .$eval('[data-testid="permission-dialog"]:not([data-armed="false"])', (dialog) => {
            dialog.querySelector<HTMLButtonElement>('[data-testid="allow-once"]')?.click();
            return dialog.getAttribute('data-tool');
          })
          .catch(() => null);
        if (tool) allowed.push(tool);
        await new Promise((r) => setTimeout(r, tool ? 150 : 50));
      }
    })();
    return {
      stop: async () => {
        running = false;
        await loop;
        return allowed;
      },
    };
  }

  /** Sends a task, allows what the agent asks for, waits until it has finished, and gives the answers. */
  async runTask(task: string): Promise<string[]> {
    const approver = this.allowEverything();
    try {
      await this.send(task);
      await this.waitForAnswer(/./, 60_000);
      await this.waitForIdle(60_000);
    } finally {
      await approver.stop();
    }
    return this.assistantTexts();
  }

  composerValue(): Promise<string> {
    return this.page.$eval('[data-testid="composer"]', (el) => (el as HTMLTextAreaElement).value);
  }
}
