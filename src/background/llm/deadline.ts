/**
 * An abort signal that fires when the caller aborts OR when nothing has happened for `idleMs`.
 * Streams call {@link Deadline.touch} on every chunk, so a slow but steady answer never times
 * out, while a server that goes silent is abandoned.
 */
export class Deadline {
  private readonly controller = new AbortController();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private expired = false;
  private readonly onParentAbort = () => this.controller.abort(this.parent.reason);

  constructor(
    private readonly parent: AbortSignal,
    private readonly idleMs: number,
  ) {
    if (parent.aborted) this.controller.abort(parent.reason);
    else parent.addEventListener('abort', this.onParentAbort, { once: true });
    this.touch();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** True when the deadline, not the caller, ended the request. */
  get timedOut(): boolean {
    return this.expired;
  }

  touch(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.expired = true;
      this.controller.abort(new DOMException('The server did not answer in time.', 'TimeoutError'));
    }, this.idleMs);
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.parent.removeEventListener('abort', this.onParentAbort);
  }
}
