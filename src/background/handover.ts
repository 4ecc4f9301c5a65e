/**
 * Tasks handed over to the user: a step (or a chat's task) that meets a login, a captcha or a
 * choice only the user can make says what it needs, its tab comes to the front, and it waits
 * until the user presses Continue, or its run is stopped. Every open sidebar is told when a
 * hand-over begins and ends.
 */
import { newId } from '../shared/conversation';
import type { BgToUiEvent, HandOver } from '../shared/protocol';
import type { HandOverControl } from './plans/control';

export type HandOverRequest = Omit<HandOver, 'id'>;

export class HandOverRegistry implements HandOverControl {
  private readonly waiting = new Map<string, { request: HandOver; done(continued: boolean): void }>();

  constructor(
    private readonly emit: (event: BgToUiEvent) => void,
    /** Brings the tab to the front, in its window. */
    private readonly focusTab: (tabId: number) => Promise<unknown> = async () => undefined,
    /** The site (origin) a tab is on now, named beside the need; without it the need stands alone. */
    private readonly siteOf?: (tabId: number) => Promise<string | undefined>,
  ) {}

  pending(): HandOver[] {
    return [...this.waiting.values()].map((w) => w.request);
  }

  continue(id: string): boolean {
    const found = this.waiting.get(id);
    found?.done(true);
    return Boolean(found);
  }

  /** Waits for the user: true when they pressed Continue, false when the run was stopped first. */
  wait(request: HandOverRequest, signal: AbortSignal): Promise<boolean> {
    if (signal.aborted) return Promise.resolve(false);
    const handOver: HandOver = { ...request, id: newId('handover'), need: request.need.slice(0, 500) };
    return new Promise<boolean>((resolve) => {
      const onAbort = () => done(false);
      const done = (continued: boolean) => {
        if (!this.waiting.delete(handOver.id)) return;
        signal.removeEventListener('abort', onAbort);
        this.emit({ type: 'handover/resolved', id: handOver.id });
        resolve(continued);
      };
      this.waiting.set(handOver.id, { request: handOver, done });
      signal.addEventListener('abort', onAbort, { once: true });
      const tabId = handOver.tabId;
      if (tabId === undefined || !this.siteOf) return this.announce(handOver);
      // The need is the model's words, which a page can steer ("enter your bank password"): the
      // user is told which site the tab that comes to the front is on.
      void this.siteOf(tabId)
        .catch(() => undefined)
        .then((site) => {
          if (!this.waiting.has(handOver.id)) return;
          if (site) handOver.site = site.slice(0, 500);
          this.announce(handOver);
        });
    });
  }

  private announce(handOver: HandOver): void {
    this.emit({ type: 'handover/requested', request: handOver });
    if (handOver.tabId !== undefined) void this.focusTab(handOver.tabId).catch(() => undefined);
  }
}
