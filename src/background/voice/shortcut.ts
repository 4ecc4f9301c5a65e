/**
 * The global voice shortcut (`toggle-voice` in the manifest): it opens the sidebar and starts or
 * stops recording there. The sidebar may be closed when it is pressed, so the request waits a few
 * seconds to be claimed: by the open sidebar when the event reaches it, or by the sidebar that
 * opens, when it loads. One press toggles once, whichever claims it first.
 */
export const SHORTCUT_WAIT_MS = 8000;

export class VoiceShortcut {
  private pending: { windowId?: number; at: number } | undefined;

  constructor(
    private readonly announce: (windowId: number | undefined) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** The shortcut was pressed in this window. */
  pressed(windowId: number | undefined): void {
    this.pending = { windowId, at: this.now() };
    this.announce(windowId);
  }

  /** A sidebar in `windowId` asks whether it should toggle recording; true once per press. */
  claim(windowId: number | undefined): boolean {
    const pending = this.pending;
    if (!pending || this.now() - pending.at > SHORTCUT_WAIT_MS) return false;
    if (pending.windowId !== undefined && windowId !== undefined && pending.windowId !== windowId) return false;
    this.pending = undefined;
    return true;
  }
}
