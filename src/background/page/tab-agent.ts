import { PAGE_AGENT_VERSION, type ContentReply, type ContentRequest, type ElementRef, type PageAction, type TargetInfo } from '../../shared/content-protocol';
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

/** The tools that act on a page element (or the focused one): the gate inspects their target. */
export const ELEMENT_TOOLS = new Set(['click', 'hover', 'fill', 'select_option', 'set_checked', 'press_key', 'submit_form', 'scroll']);

/** What the gate inspected for one call: where (snapshot, document, origin) and what. */
type Inspection = { tabId: number; ref: ElementRef; target?: TargetInfo } | { tabId: number; error: PageError };

/**
 * Talks to the page agent in a tab, injecting it first when the page does not have it yet
 * (a fresh page, or one loaded before the extension). Restricted pages and closed tabs give a
 * clear PageError.
 */
export class TabAgent {
  /** The nonce of the latest snapshot read from each tab: the one whose ids the model uses. */
  private readonly snapshots = new Map<number, string>();
  /** Inspections by the gate, per call (its arguments object), until the call acts. */
  private readonly inspections = new WeakMap<object, Inspection>();

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
    if (request.type === 'page/read') this.remember(tabId, reply.value);
    return reply.value as T;
  }

  private remember(tabId: number, value: unknown): void {
    const nonce = (value as { snapshot?: { nonce?: unknown } } | undefined)?.snapshot?.nonce;
    if (typeof nonce === 'string') this.snapshots.set(tabId, nonce);
  }

  /**
   * For the permission gate: what the element a call acts on is (by its id in the latest snapshot,
   * or the focused element for a key press), remembered for that very call, so that `act` does
   * exactly what was judged. Undefined for calls that act on no page element.
   */
  async inspect(tabId: number, call: { tool: string; args: Record<string, unknown> }): Promise<TargetInfo | undefined> {
    if (!ELEMENT_TOOLS.has(call.tool)) return undefined;
    const id = typeof call.args.id === 'number' ? call.args.id : undefined;
    const key = call.tool === 'press_key' && typeof call.args.key === 'string' ? call.args.key : undefined;
    try {
      const found = await this.request<{ ref: ElementRef; target?: TargetInfo }>(tabId, { type: 'page/inspect', snapshot: this.snapshots.get(tabId) ?? '', id, key });
      this.inspections.set(call.args, { tabId, ...found });
      return found.target;
    } catch (error) {
      this.inspections.set(call.args, { tabId, error: error instanceof PageError ? error : new PageError('page_error', String(error)) });
      throw error;
    }
  }

  /**
   * Carries out an action the gate allowed, in one message that also checks, in the page, that
   * the snapshot, the document, the origin and the element are still the ones it inspected.
   */
  async act(tabId: number, args: object, action: PageAction): Promise<{ message: string; url: string }> {
    const inspected = this.inspections.get(args);
    this.inspections.delete(args);
    if (!inspected) throw new PageError('not_checked', 'This action was not checked by the permission engine, so it was not done.');
    if ('error' in inspected) throw inspected.error;
    if (inspected.tabId !== tabId) throw new PageError('stale', 'The task moved to another tab since this action was checked; read the page again.');
    return this.request(tabId, { type: 'page/act', act: action, expect: { ...inspected.ref, target: inspected.target } });
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
