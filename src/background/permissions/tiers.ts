import type { TargetInfo } from '../../shared/content-protocol';
import type { Risk } from '../../shared/permissions';

/** What the page says about the element a call targets (from the page agent's inspection). */
export type { TargetInfo };

/** Tools that act on an element without being able to send its form or change what it holds. */
const LOOKING_ONLY = new Set(['scroll', 'hover', 'hover_at']);

const PERSONAL_FIELD = /pass(word|wd|code)?|pin\b|otp|one.?time|cc-|card|cvc|cvv|csc|iban|account.?(number|no)|routing|sort.?code|ssn|social.?security|tax.?id|passport|licen[cs]e.?(number|no)|birth|bday|dob/i;

/** A field whose content is a secret, money or personal data. */
export function isSensitiveField(target: TargetInfo | undefined): boolean {
  if (!target) return false;
  if (target.type === 'password') return true;
  const hints = [target.autocomplete, target.inputName, target.name].filter(Boolean).join(' ');
  return PERSONAL_FIELD.test(hints);
}

/** Tools that send a picture of the page to the model: on a site the user marked sensitive, each is asked first. */
export const CAPTURE_TOOLS = new Set(['look']);

export interface TierInput {
  risk: Risk;
  tool: string;
  target?: TargetInfo;
  /** The call leads to another origin than the page it starts from (navigation). */
  crossOrigin?: boolean;
  /** The user marked this site as sensitive. */
  sensitiveSite?: boolean;
}

/**
 * The tier of a concrete call: its tool's risk, raised by what it touches. A click is
 * "interact", but typing into a card number, a download, anything on a site the user marked
 * sensitive, and any action (but scrolling to or hovering) on an element of a form that holds a
 * password or card field — inside it, naming it with its `form` attribute, or a button outside
 * every form that may send it by script — is "sensitive". So is Enter in such a form's field, and
 * a screenshot of a site the user marked sensitive (reading its text stays "read").
 */
export function tierOf(input: TierInput): Risk {
  if (input.risk === 'sensitive') return 'sensitive';
  if (input.risk === 'read') return input.sensitiveSite && CAPTURE_TOOLS.has(input.tool) ? 'sensitive' : 'read';
  if (input.sensitiveSite) return 'sensitive';
  const target = input.target;
  if (isSensitiveField(target)) return 'sensitive';
  if (target?.download) return 'sensitive';
  if (target?.submitsForm && target.formHasPassword) return 'sensitive';
  if ((target?.formHasPassword || target?.formHasPayment) && !LOOKING_ONLY.has(input.tool)) return 'sensitive';
  if (input.risk === 'navigate' && !input.crossOrigin) return 'interact';
  return input.risk;
}
