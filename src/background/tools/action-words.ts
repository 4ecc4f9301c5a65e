/**
 * The timeline's line for a page action or a page problem, in the user's language. The page agent
 * reports what it did in parts (`ActionReport`); the words are ours, the element's name is the
 * page's (shown as text, never as markup).
 */
import type { ActionReport } from '../../shared/content-protocol';
import { say, type Localized, type MessageKey } from '../../shared/i18n';
import { elementKind } from '../element-words';

function elementSaid(element: ActionReport['element']): Localized | string {
  if (!element) return say('actTheElement');
  const kind = elementKind(element.role.replace(/[^a-z-]/gi, '').slice(0, 20) || 'element');
  return element.name ? say('targetNamed', kind, element.name) : kind;
}

const SCROLLED: Record<string, MessageKey> = { up: 'actScrolledUp', down: 'actScrolledDown', top: 'actScrolledTop', bottom: 'actScrolledBottom' };

const WORDING: { [K in ActionReport['kind']]: (element: Localized | string, detail: string) => Localized } = {
  clicked: (element) => say('actClicked', element),
  clicked_unsent: (element) => say('actClickedUnsent', element),
  hovered: (element) => say('actHovered', element),
  typed: (element) => say('actTyped', element),
  selected: (element, option) => say('actSelected', option, element),
  checked: (element) => say('actChecked', element),
  unchecked: (element) => say('actUnchecked', element),
  pressed: (element, key) => say('actPressed', key, element),
  enter_submitted: (element) => say('actEnterSubmitted', element),
  submitted: () => say('actSubmitted'),
  unsent: () => say('actUnsent'),
  scrolled_to: (element) => say('actScrolledTo', element),
  scrolled: (_element, direction) => say(Object.hasOwn(SCROLLED, direction) ? SCROLLED[direction]! : 'actScrolledDown'),
};

export function actionSaid(report: ActionReport): Localized {
  return WORDING[report.kind](elementSaid(report.element), report.detail ?? '');
}

/** Page problems FoxAgent has its own words for, by code (the page's own English detail goes to the model). */
const PROBLEMS: Record<string, MessageKey> = {
  not_found: 'pageProblemNotFound',
  detached: 'pageProblemDetached',
  hidden: 'pageProblemHidden',
  disabled: 'pageProblemDisabled',
  wrong_kind: 'pageProblemWrongKind',
  no_option: 'pageProblemNoOption',
  timeout: 'pageProblemTimeout',
  stale: 'pageProblemStale',
  changed: 'pageProblemChanged',
  page_unreachable: 'pageProblemUnreachable',
  tab_closed: 'pageProblemTabClosed',
  bad_reply: 'pageProblemBadReply',
  not_checked: 'pageProblemNotChecked',
  no_tab: 'pageProblemNoTab',
};

/** The words for a page problem's code, where we have them. */
export function problemSaid(code: string): Localized | undefined {
  return Object.hasOwn(PROBLEMS, code) ? say(PROBLEMS[code]!) : undefined;
}
