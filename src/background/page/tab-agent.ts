import { PAGE_AGENT_VERSION, type ContentReply, type ContentRequest } from '../../shared/content-protocol';
import { restrictionOf } from './restricted';

/** The few tab APIs the page layer needs; `browser.tabs` provides them. */
export interface TabsApi {
  get(tabId: number): Promise<{ id?: number; url?: string; title?: string; status?: string }>;
  sendMessage(tabId: number, message: unknown, options?: { frameId?: number }): Promise<unknown>;
  executeScript(tabId: number, details: { file: string; runAt?: 'document_idle' | 'document_end' | 'document_start'; frameId?: number }): Promise<unknown[]>;
}

export class PageError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Talks to the page agent in a tab, injecting it first when the page does not have it yet
 * (a fresh page, or one loaded before the extension). Restricted pages and closed tabs give a
 * clear PageError.
 */
export class TabAgent {
  constructor(
    private readonly tabs: TabsApi,
    private readonly agentFile = '/page-agent.js',
  ) {}

  async request<T>(tabId: number, request: ContentRequest): Promise<T> {
    await this.ensureInjected(tabId);
    const reply = (await this.tabs.sendMessage(tabId, request, { frameId: 0 }).catch((error: unknown) => {
      throw new PageError('page_unreachable', `The page did not answer (${error instanceof Error ? error.message : String(error)}). It may be reloading: try again.`);
    })) as ContentReply | undefined;
    if (!reply) throw new PageError('page_unreachable', 'The page did not answer. It may be reloading: try again.');
    if ('error' in reply) throw new PageError(reply.error.code, reply.error.message);
    return reply.value as T;
  }

  async ensureInjected(tabId: number): Promise<void> {
    const tab = await this.tabs.get(tabId).catch(() => {
      throw new PageError('tab_closed', 'That tab has been closed.');
    });
    const restriction = restrictionOf(tab.url);
    if (restriction) throw new PageError('restricted_page', restriction);
    const alive = await this.tabs.sendMessage(tabId, { type: 'page/ping' }, { frameId: 0 }).catch(() => undefined);
    if (isCurrentAgent(alive)) return;
    try {
      await this.tabs.executeScript(tabId, { file: this.agentFile, runAt: 'document_idle', frameId: 0 });
    } catch (error) {
      throw new PageError('restricted_page', `FoxAgent cannot act on this page: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

function isCurrentAgent(reply: unknown): boolean {
  const value = (reply as { value?: { version?: number } } | undefined)?.value;
  return value?.version === PAGE_AGENT_VERSION;
}
