/**
 * When the agent looks at a page without being asked: the page in view has almost no text and no
 * usable (named) interactive element while pictures cover a large part of it — a canvas or WebGL
 * app, an image-only page — or two actions on elements have failed in a row. Checked only for
 * models that take images; the look itself is an ordinary `look` call, through the permission
 * gate like any other.
 */
import type { PageLook } from '../../shared/vision';
import { callId } from '../llm/call-id';
import type { ToolCall } from '../llm/types';

/** Less visible text than this (characters, spaces left out) is "almost none". */
export const SPARSE_TEXT_CHARS = 80;
/** Pictures covering this share of the viewport make a "large visible area". */
export const LARGE_VISUAL_SHARE = 0.3;
/** Failed actions on elements in a row before the agent looks. */
export const FAILURES_BEFORE_LOOK = 2;

const ELEMENT_ACTIONS = new Set(['click', 'fill', 'hover', 'select_option', 'set_checked', 'press_key', 'submit_form', 'click_at', 'type_at', 'hover_at']);

export type LookReason = 'sparse_page' | 'actions_failing';

/** A page the DOM reader cannot describe: little text, nothing named to act on, and much of it pictures. */
export function isSparse(look: Pick<PageLook, 'marks' | 'textChars' | 'visualShare'>): boolean {
  const named = look.marks.filter((m) => m.name.trim() !== '').length;
  return named === 0 && look.textChars < SPARSE_TEXT_CHARS && look.visualShare >= LARGE_VISUAL_SHARE;
}

/** What the fallback needs of the page: its layout facts (no screenshot). */
export interface PageLooker {
  look(tabId: number): Promise<PageLook>;
}

const WHY: Record<LookReason, string> = {
  sparse_page: 'the page shows almost no text and nothing named to act on',
  actions_failing: 'two actions on the page failed in a row',
};

/** One task's fallback: told of each call, asked before each step whether to look first. */
export class VisionFallback {
  /** Whether the page should be checked: at the start, and after each read of it. */
  private pageUnchecked = true;
  private failures = 0;

  constructor(private readonly pages: PageLooker) {}

  saw(call: Pick<ToolCall, 'name'>, ok: boolean): void {
    if (call.name === 'look') {
      this.failures = 0;
      this.pageUnchecked = false;
    } else if (call.name === 'read_page' && ok) {
      this.pageUnchecked = true;
    } else if (ELEMENT_ACTIONS.has(call.name)) {
      this.failures = ok ? 0 : this.failures + 1;
    }
  }

  /** Why the agent should look now, if it should. A page that cannot be measured is not looked at. */
  async due(tabId: number | undefined): Promise<LookReason | undefined> {
    if (tabId === undefined) return undefined;
    if (this.failures >= FAILURES_BEFORE_LOOK) {
      this.failures = 0;
      return 'actions_failing';
    }
    if (!this.pageUnchecked) return undefined;
    this.pageUnchecked = false;
    const look = await this.pages.look(tabId).catch(() => undefined);
    return look && isSparse(look) ? 'sparse_page' : undefined;
  }
}

/** The `look` call the agent makes itself; its reason says why, to the user and the model. */
export function lookCall(reason: LookReason): ToolCall {
  return { id: callId(0), name: 'look', arguments: { reason: `Looking at the page because ${WHY[reason]}.` } };
}
