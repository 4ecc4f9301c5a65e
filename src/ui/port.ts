import browser, { type Runtime } from 'webextension-polyfill';
import {
  BgToUiEnvelopeSchema,
  SIDEBAR_PORT,
  type BgToUiEvent,
  type SerializedError,
  type UiReplyMap,
  type UiRequestType,
  type UiToBgRequest,
} from '../shared/protocol';
import { errorWords, t } from './i18n';

/** A request the background refused; `message` is in the user's language. */
export class RequestError extends Error {
  constructor(readonly detail: SerializedError) {
    super(errorWords(detail).message);
  }
}

type Pending = { resolve(value: unknown): void; reject(error: Error): void };

/**
 * The sidebar's one connection to the background: typed requests with one reply each, and a
 * stream of events. It reconnects if the background goes away (an extension reload).
 */
export class BackgroundPort {
  private port: Runtime.Port | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Set<(event: BgToUiEvent) => void>();

  request<T extends UiRequestType>(body: Extract<UiToBgRequest, { type: T }>): Promise<UiReplyMap[T]> {
    const id = this.nextId++;
    return new Promise<UiReplyMap[T]>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      try {
        this.connect().postMessage({ kind: 'request', id, body });
      } catch (error) {
        this.pending.delete(id);
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  }

  onEvent(listener: (event: BgToUiEvent) => void): () => void {
    this.listeners.add(listener);
    this.connect();
    return () => this.listeners.delete(listener);
  }

  private connect(): Runtime.Port {
    if (this.port) return this.port;
    const port = browser.runtime.connect({ name: SIDEBAR_PORT });
    port.onMessage.addListener((message: unknown) => this.receive(message));
    port.onDisconnect.addListener(() => {
      this.port = undefined;
      for (const [id, p] of this.pending) {
        p.reject(new RequestError({ code: 'disconnected', message: t('errorBackgroundRestarted') }));
        this.pending.delete(id);
      }
    });
    this.port = port;
    return port;
  }

  private receive(message: unknown): void {
    const parsed = BgToUiEnvelopeSchema.safeParse(message);
    if (!parsed.success) return;
    const envelope = parsed.data;
    if (envelope.kind === 'event') {
      for (const listener of this.listeners) listener(envelope.body);
      return;
    }
    const pending = this.pending.get(envelope.id);
    if (!pending) return;
    this.pending.delete(envelope.id);
    if ('error' in envelope) pending.reject(new RequestError(envelope.error));
    else pending.resolve(envelope.value);
  }
}

export const backgroundPort = new BackgroundPort();
