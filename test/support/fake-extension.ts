/**
 * The extension APIs the sidebar and options page use, faked for component tests in jsdom: a
 * background at the other end of the real `BackgroundPort` (requests answered by the test's
 * handlers, events pushed by the test), `_locales` strings through `i18n`, and `storage.local`.
 * Import it before any module that imports webextension-polyfill.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { formatMessage, type Catalogue } from '../../src/shared/i18n';
import { RequestEnvelopeSchema, type BgToUiEvent, type SerializedError, type UiReplyMap, type UiRequestType, type UiToBgRequest } from '../../src/shared/protocol';

type Handler<T extends UiRequestType> = (request: Extract<UiToBgRequest, { type: T }>) => UiReplyMap[T] | Promise<UiReplyMap[T]>;
export type FakeHandlers = { [T in UiRequestType]?: Handler<T> };

/** A reply the fake background fails with, as the real one does (code, message, hint). */
export class FakeFailure extends Error {
  constructor(readonly detail: SerializedError) {
    super(detail.message);
  }
}

type Listener = (message: unknown) => void;

const messages = JSON.parse(readFileSync(path.resolve(__dirname, '../../_locales/en/messages.json'), 'utf8')) as Catalogue;

/** What `browser.i18n.getMessage` returns for the English locale, placeholders filled in. */
function getMessage(key: string, substitutions?: string | string[]): string {
  return formatMessage(messages, key, substitutions === undefined ? [] : [substitutions].flat());
}

export interface FakeBackground {
  /** Every request the UI sent, in order. */
  readonly requests: UiToBgRequest[];
  handlers: FakeHandlers;
  readonly storage: Map<string, unknown>;
  emit(event: BgToUiEvent): void;
  /** Requests of one type. */
  sent<T extends UiRequestType>(type: T): Extract<UiToBgRequest, { type: T }>[];
}

export function installFakeExtension(handlers: FakeHandlers = {}): FakeBackground {
  const listeners = new Set<Listener>();
  const storage = new Map<string, unknown>();
  const storageListeners = new Set<(changes: Record<string, { newValue?: unknown }>, area: string) => void>();
  const fake: FakeBackground = {
    requests: [],
    handlers,
    storage,
    emit(event) {
      for (const l of listeners) l({ kind: 'event', body: event });
    },
    sent: (type) => fake.requests.filter((r) => r.type === type) as never,
  };

  const answer = async (raw: unknown) => {
    const envelope = RequestEnvelopeSchema.parse(raw);
    fake.requests.push(envelope.body);
    const handler = fake.handlers[envelope.body.type] as ((r: UiToBgRequest) => unknown) | undefined;
    let reply: unknown;
    try {
      if (!handler) throw new FakeFailure({ code: 'unhandled', message: `No fake handler for ${envelope.body.type}` });
      reply = { kind: 'reply', id: envelope.id, value: await handler(envelope.body) };
    } catch (error) {
      const detail = error instanceof FakeFailure ? error.detail : { code: 'internal', message: String(error) };
      reply = { kind: 'reply', id: envelope.id, error: detail };
    }
    for (const l of listeners) l(reply);
  };

  const browser = {
    runtime: {
      id: 'foxagent@test',
      connect: () => ({
        postMessage: (message: unknown) => void answer(message),
        onMessage: { addListener: (l: Listener) => listeners.add(l) },
        onDisconnect: { addListener: () => undefined },
      }),
      openOptionsPage: async () => undefined,
    },
    i18n: { getMessage },
    storage: {
      local: {
        get: async (key: string) => (storage.has(key) ? { [key]: storage.get(key) } : {}),
        set: async (items: Record<string, unknown>) => {
          for (const [k, v] of Object.entries(items)) storage.set(k, v);
          const changes = Object.fromEntries(Object.entries(items).map(([k, v]) => [k, { newValue: v }]));
          for (const l of storageListeners) l(changes, 'local');
        },
        remove: async (key: string) => {
          storage.delete(key);
          for (const l of storageListeners) l({ [key]: {} }, 'local');
        },
      },
      onChanged: {
        addListener: (l: (changes: Record<string, { newValue?: unknown }>, area: string) => void) => storageListeners.add(l),
        removeListener: (l: (changes: Record<string, { newValue?: unknown }>, area: string) => void) => storageListeners.delete(l),
      },
    },
  };
  Object.assign(globalThis, { browser, chrome: { runtime: { id: browser.runtime.id } } });
  return fake;
}

/** The one fake, installed on import so that it is in place before the UI modules load. */
export const background = installFakeExtension();
