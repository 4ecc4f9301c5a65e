import { PAGE_AGENT_VERSION, type ContentReplyMap, type ContentRequest, type ContentRequestType, type ElementRef, type PageAction, type TargetInfo } from '../../shared/content-protocol';
import { ContentReplySchema, ContentReplySchemas, PingReplySchema } from '../../shared/content-replies';
import { say, type Localized } from '../../shared/i18n';
import type { ClientPoint, ScreenPoint } from '../../shared/vision';
import { restrictionOf, restrictionSaid } from './restricted';

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
    /** The same for the user, where the code alone does not say it (a restricted page's reason). */
    readonly text?: Localized,
  ) {
    super(message);
  }
}

/** The tools that act on a page element (or the focused one): the gate inspects their target. */
export const ELEMENT_TOOLS = new Set(['click', 'hover', 'fill', 'select_option', 'set_checked', 'press_key', 'submit_form', 'scroll', 'click_at', 'type_at', 'hover_at']);

/** What the gate inspected for one call: where (snapshot, document, origin) and what (for a point, the id it found there). */
type Inspection = { tabId: number; ref: ElementRef; target?: TargetInfo; pointed?: { id: number; at: ClientPoint } } | { tabId: number; error: PageError };

/** The latest screenshot of a tab, as points in it are read: its size and the view it showed. */
export type Screenshot = Pick<ScreenPoint, 'image' | 'view'>;

/** What the background knows of the page agent in a tab's current document. */
interface Session {
  /** The document's token, once a reply has said it; a reply with another token means a new document. */
  doc?: string;
}

export interface TabAgentOptions {
  agentFile?: string;
  /**
   * Check the tab and ping the page agent before every request, as before sessions existed. Off
   * in the extension; the bench turns it on to measure the difference in the same run.
   */
  verifyEveryRequest?: boolean;
}

/** A request that reached no page agent: the document has none (yet), or is being replaced. */
const NO_RECEIVER = Symbol('no receiver');
const NO_RECEIVER_TEXT = /could not establish connection|receiving end does not exist/i;
/** Bounds what a page can put into an error the user and the model see. */
const MAX_PAGE_ERROR = 500;

/**
 * Talks to the page agent in a tab. It keeps one session per tab and document: the first request
 * checks the tab (closed, restricted page), pings, and injects the agent if the document has none;
 * later requests go straight to it. The session ends when the tab navigates or reloads
 * (`onDocumentChange`) or closes (`forget`), when a request reaches no agent, or when a reply comes
 * from another document. Every reply is parsed against its request's reply schema here, in one
 * place: a page's process can answer anything.
 */
export class TabAgent {
  /** The nonce of the latest snapshot read from each tab: the one whose ids the model uses. */
  private readonly snapshots = new Map<number, string>();
  /** Inspections by the gate, per call (its arguments object), until the call acts. */
  private readonly inspections = new WeakMap<object, Inspection>();
  private readonly sessions = new Map<number, Session>();
  /** Sessions being opened, so that requests made together check and inject once. */
  private readonly opening = new Map<number, Promise<void>>();
  /** Bumped when a tab's document changes, so a session opened for the old one is not kept. */
  private readonly epochs = new Map<number, number>();
  /** The latest screenshot taken of each tab's current document: where a point in it is. */
  private readonly screenshots = new Map<number, Screenshot>();
  private readonly agentFile: string;
  private readonly verifyEveryRequest: boolean;

  constructor(
    private readonly tabs: TabsApi,
    options: TabAgentOptions = {},
  ) {
    this.agentFile = options.agentFile ?? '/page-agent.js';
    this.verifyEveryRequest = options.verifyEveryRequest ?? false;
  }

  /** The tab navigated or reloaded: its next request checks the tab and the page agent again. */
  onDocumentChange(tabId: number): void {
    this.sessions.delete(tabId);
    this.snapshots.delete(tabId);
    this.screenshots.delete(tabId);
    this.epochs.set(tabId, (this.epochs.get(tabId) ?? 0) + 1);
  }

  /** The tab closed: nothing about it is kept. */
  forget(tabId: number): void {
    this.onDocumentChange(tabId);
    this.epochs.delete(tabId);
  }

  /** Sends a request to the page agent; the reply's type follows from the request, and it is parsed, not trusted. */
  async request<K extends ContentRequestType>(tabId: number, request: Extract<ContentRequest, { type: K }>): Promise<ContentReplyMap[K]> {
    await this.ensureSession(tabId);
    let raw = await this.send(tabId, request);
    if (raw === NO_RECEIVER) {
      // The document has no agent (it was replaced before we heard of it): open a new session, once.
      this.sessions.delete(tabId);
      await this.ensureSession(tabId);
      raw = await this.send(tabId, request);
      if (raw === NO_RECEIVER) throw new PageError('page_unreachable', 'The page did not answer. It may be reloading: try again.');
    }
    const value = this.parse(tabId, request.type, raw);
    this.onReply[request.type]?.(tabId, value);
    return value;
  }

  /** What the agent learns from a reply: a read's nonce is the one whose ids the model uses next. */
  private readonly onReply: { [K in ContentRequestType]?: (tabId: number, value: ContentReplyMap[K]) => void } = {
    'page/read': (tabId, value) => {
      if (value.snapshot.nonce !== undefined) this.snapshots.set(tabId, value.snapshot.nonce);
    },
    'page/look': (tabId, value) => {
      if (value.nonce !== undefined) this.snapshots.set(tabId, value.nonce);
    },
  };

  /** A screenshot of the tab was sent to the model: points the model reads from it are in it. */
  rememberScreenshot(tabId: number, shot: Screenshot): void {
    this.screenshots.set(tabId, shot);
  }

  /** For a call by point or mark: the element id the gate's inspection found, and where to press it. */
  pointed(args: object): { id: number; at?: ClientPoint } | undefined {
    const inspected = this.inspections.get(args);
    if (inspected && 'pointed' in inspected && inspected.pointed) return inspected.pointed;
    const mark = (args as { mark?: unknown }).mark;
    return typeof mark === 'number' ? { id: mark } : undefined;
  }

  /** The one place a page agent's reply is read: the envelope, then the value against its request's schema. */
  private parse<K extends ContentRequestType>(tabId: number, type: K, raw: unknown): ContentReplyMap[K] {
    const envelope = ContentReplySchema.safeParse(raw);
    if (!envelope.success) throw badReply(type, 'it is neither a value nor an error');
    const session = this.sessions.get(tabId);
    if (session && envelope.data.doc !== undefined && session.doc !== envelope.data.doc) {
      // Another document answered (the page replaced its own): its ids and snapshots are new.
      if (session.doc !== undefined) this.snapshots.delete(tabId);
      session.doc = envelope.data.doc;
    }
    if ('error' in envelope.data) throw new PageError(envelope.data.error.code.slice(0, 40), envelope.data.error.message.slice(0, MAX_PAGE_ERROR));
    const schema = ContentReplySchemas[type];
    const value = schema.safeParse(envelope.data.value);
    if (!value.success) {
      const first = value.error.issues[0];
      // zod/mini carries no message texts (they would weigh on the page agent): say what was expected.
      const what = first?.code === 'invalid_type' ? `expected ${first.expected}` : (first?.message ?? 'malformed');
      throw badReply(type, first?.path.length ? `${first.path.map(String).join('.')}: ${what}` : what);
    }
    return value.data;
  }

  private async send(tabId: number, request: ContentRequest): Promise<unknown> {
    try {
      const reply = await this.tabs.sendMessage(tabId, request, { frameId: 0 });
      // No listener answered: the document has no page agent.
      return reply === undefined ? NO_RECEIVER : reply;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (NO_RECEIVER_TEXT.test(message)) return NO_RECEIVER;
      this.sessions.delete(tabId);
      await this.tabs.get(tabId).catch(() => {
        throw new PageError('tab_closed', 'That tab has been closed.');
      });
      throw new PageError('page_unreachable', `The page did not answer (${message}). It may be reloading: try again.`);
    }
  }

  /**
   * For the permission gate: what the element a call acts on is (by its id in the latest snapshot,
   * or the focused element for a key press), remembered for that very call, so that `act` does
   * exactly what was judged. Undefined for calls that act on no page element.
   */
  async inspect(tabId: number, call: { tool: string; args: Record<string, unknown> }): Promise<TargetInfo | undefined> {
    if (!ELEMENT_TOOLS.has(call.tool)) return undefined;
    const id = typeof call.args.id === 'number' ? call.args.id : typeof call.args.mark === 'number' ? call.args.mark : undefined;
    const key = call.tool === 'press_key' && typeof call.args.key === 'string' ? call.args.key : undefined;
    try {
      const point = id === undefined ? this.pointOf(tabId, call.args) : undefined;
      const found = await this.request(tabId, { type: 'page/inspect', snapshot: this.snapshots.get(tabId) ?? '', id, key, ...(point ? { point } : {}) });
      this.inspections.set(call.args, { tabId, ...found });
      return found.target;
    } catch (error) {
      this.inspections.set(call.args, { tabId, error: error instanceof PageError ? error : new PageError('page_error', String(error)) });
      throw error;
    }
  }

  /** A call's point in the tab's latest screenshot; an error when it names a point but there is no screenshot to read it in. */
  private pointOf(tabId: number, args: Record<string, unknown>): ScreenPoint | undefined {
    if (typeof args.x !== 'number' || typeof args.y !== 'number') return undefined;
    const shot = this.screenshots.get(tabId);
    if (!shot) throw new PageError('no_screenshot', 'There is no screenshot of this page to point in: call look first, then give a point in its pixels.', say('pageProblemNoScreenshot'));
    return { x: args.x, y: args.y, ...shot };
  }

  /**
   * Carries out an action the gate allowed, in one message that also checks, in the page, that
   * the snapshot, the document, the origin and the element are still the ones it inspected.
   */
  async act(tabId: number, args: object, action: PageAction): Promise<ContentReplyMap['page/act']> {
    const inspected = this.inspections.get(args);
    this.inspections.delete(args);
    if (!inspected) throw new PageError('not_checked', 'This action was not checked by the permission engine, so it was not done.');
    if ('error' in inspected) throw inspected.error;
    if (inspected.tabId !== tabId) throw new PageError('stale', 'The task moved to another tab since this action was checked; read the page again.');
    return this.request(tabId, { type: 'page/act', act: action, expect: { ...inspected.ref, target: inspected.target } });
  }

  /** A session for the tab's current document, opened if there is none (or always, in the old mode). */
  private ensureSession(tabId: number): Promise<void> {
    if (!this.verifyEveryRequest && this.sessions.has(tabId)) return Promise.resolve();
    const pending = this.opening.get(tabId);
    if (pending) return pending;
    const epoch = this.epochs.get(tabId) ?? 0;
    const opened = this.open(tabId)
      .then((session) => {
        if ((this.epochs.get(tabId) ?? 0) === epoch) this.sessions.set(tabId, session);
      })
      .finally(() => this.opening.delete(tabId));
    this.opening.set(tabId, opened);
    return opened;
  }

  /** Checks the tab (closed, restricted page) and finds or injects the page agent in its document. */
  private async open(tabId: number): Promise<Session> {
    const tab = await this.tabs.get(tabId).catch(() => {
      throw new PageError('tab_closed', 'That tab has been closed.');
    });
    const restriction = restrictionOf(tab.url);
    if (restriction) throw new PageError('restricted_page', restriction, restrictionSaid(tab.url));
    const alive = await this.tabs.sendMessage(tabId, { type: 'page/ping' }, { frameId: 0 }).catch(() => undefined);
    const envelope = ContentReplySchema.safeParse(alive);
    if (envelope.success && 'value' in envelope.data) {
      const ping = PingReplySchema.safeParse(envelope.data.value);
      if (ping.success && ping.data.version === PAGE_AGENT_VERSION) return { doc: ping.data.doc };
    }
    try {
      await this.tabs.executeScript(tabId, { file: this.agentFile, runAt: 'document_idle', frameId: 0 });
    } catch (error) {
      throw new PageError('restricted_page', `FoxAgent cannot act on this page: ${error instanceof Error ? error.message : String(error)}`, say('pageProblemCannotAct'));
    }
    // The new agent's document token arrives with its first reply.
    return {};
  }
}

/** A reply that is not what its request is answered with: forged, or from a broken page agent. It is not used. */
function badReply(type: ContentRequestType, why: string): PageError {
  return new PageError('bad_reply', `The page gave a malformed answer to ${type} (${why}), so FoxAgent did not use it. Reload the page and try again.`);
}
