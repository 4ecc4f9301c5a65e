import type { Risk } from '../tools/registry';

/** What the page says about the element a call targets (from the page agent's inspection). */
export interface TargetInfo {
  tag: string;
  type?: string;
  role?: string;
  name?: string;
  autocomplete?: string;
  inputName?: string;
  /** The element is (or submits) a form that holds a password field. */
  formHasPassword?: boolean;
  /** The element would submit its form when clicked. */
  submitsForm?: boolean;
  /** The element is a download link. */
  download?: boolean;
}

const PERSONAL_FIELD = /pass(word|wd|code)?|pin\b|otp|one.?time|cc-|card|cvc|cvv|csc|iban|account.?(number|no)|routing|sort.?code|ssn|social.?security|tax.?id|passport|licen[cs]e.?(number|no)|birth|bday|dob/i;

/** A field whose content is a secret, money or personal data. */
export function isSensitiveField(target: TargetInfo | undefined): boolean {
  if (!target) return false;
  if (target.type === 'password') return true;
  const hints = [target.autocomplete, target.inputName, target.name].filter(Boolean).join(' ');
  return PERSONAL_FIELD.test(hints);
}

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
 * "interact", but a click that submits a form with a password, typing into a card number, a
 * download, or anything on a site the user marked sensitive is "sensitive".
 */
export function tierOf(input: TierInput): Risk {
  if (input.risk === 'sensitive') return 'sensitive';
  if (input.risk === 'read') return 'read';
  if (input.sensitiveSite) return 'sensitive';
  const target = input.target;
  if (isSensitiveField(target)) return 'sensitive';
  if (target?.download) return 'sensitive';
  if (target?.submitsForm && target.formHasPassword) return 'sensitive';
  if (input.risk === 'navigate' && !input.crossOrigin) return 'interact';
  return input.risk;
}
