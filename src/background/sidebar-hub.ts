import type { Runtime } from 'webextension-polyfill';
import { RequestEnvelopeSchema, SIDEBAR_PORT, type BgToUiEnvelope, type BgToUiEvent, type SerializedError, type UiToBgRequest } from '../shared/protocol';
import { LlmError } from './llm/errors';
import { TranscriptionError } from './voice/errors';

/**
 * Keeps the sidebar ports: validates what arrives, answers each request with one reply envelope,
 * and broadcasts events to every open sidebar (one per window).
 */
export class SidebarHub {
  private readonly ports = new Set<Runtime.Port>();

  constructor(
    private readonly extensionOrigin: string,
    /** `from.page` is the path of the extension page that asked (e.g. `/options.html`). */
    private readonly handle: (request: UiToBgRequest, from: { page: string }) => Promise<unknown>,
  ) {}

  accept(port: Runtime.Port): void {
    if (port.name !== SIDEBAR_PORT || !this.isOwnPage(port.sender)) {
      port.disconnect();
      return;
    }
    this.ports.add(port);
    port.onDisconnect.addListener(() => this.ports.delete(port));
    port.onMessage.addListener((message: unknown) => void this.receive(port, message));
  }

  broadcast(event: BgToUiEvent): void {
    const envelope: BgToUiEnvelope = { kind: 'event', body: event };
    for (const port of this.ports) port.postMessage(envelope);
  }

  private async receive(port: Runtime.Port, message: unknown): Promise<void> {
    const parsed = RequestEnvelopeSchema.safeParse(message);
    if (!parsed.success) return; // not ours to answer: nothing well-formed asked
    const { id, body } = parsed.data;
    let reply: BgToUiEnvelope;
    try {
      reply = { kind: 'reply', id, value: await this.handle(body, { page: pageOf(port.sender?.url) }) };
    } catch (error) {
      reply = { kind: 'reply', id, error: serializeError(error) };
    }
    if (this.ports.has(port)) port.postMessage(reply);
  }

  /**
   * Only the extension's own pages may drive the background: a content script's port (a web
   * page's URL, a tab) never does, nor an address that merely begins with the same characters.
   */
  private isOwnPage(sender: Runtime.MessageSender | undefined): boolean {
    return originOf(sender?.url) === this.extensionOrigin;
  }
}

export function serializeError(error: unknown): SerializedError {
  if (error instanceof LlmError || error instanceof TranscriptionError) {
    const { code, message, hint, text } = error.toUserError();
    return { code, message, hint, ...(text && { text }) };
  }
  return { code: 'internal', message: error instanceof Error ? error.message : String(error) };
}

/** The path of the sending page, as the browser reports it (a page cannot choose it). */
function originOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  const scheme = url.indexOf('://');
  if (scheme < 0) return undefined;
  const end = url.indexOf('/', scheme + 3);
  return end < 0 ? url : url.slice(0, end);
}

function pageOf(url: string | undefined): string {
  try {
    return url ? new URL(url).pathname : '';
  } catch {
    return '';
  }
}
