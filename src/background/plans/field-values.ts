/**
 * A step's field values as the model wrote them, made into values of the field's type: "€1,299.00"
 * and "1.299,00 €" are 1299 for a number, "3 May 2024" is 2024-05-03 for a date, a URL must be an
 * absolute web address. `null` (or an empty string) means "not found". A value that cannot be
 * read as its type is a problem worded for the model to fix its call; nothing is guessed. Each
 * function looks at a bounded head of its input, once.
 */
import type { FieldType, FieldValue } from '../../shared/plan';
import { clip } from '../clip';
import { webURL } from './web-address';

export type Coerced = { ok: true; value: FieldValue } | { ok: false; problem: string };

/** The longest string value kept (the shared schema's bound). */
export const MAX_VALUE_CHARS = 2000;
/** Characters of a number or a date looked at: a model can write far more. */
const HEAD = 200;

export function coerceField(type: FieldType, raw: unknown): Coerced {
  if (raw === null || raw === undefined) return { ok: true, value: null };
  if (typeof raw === 'string' && !raw.trim()) return { ok: true, value: null };
  if (typeof raw === 'object') return { ok: false, problem: `give a single ${type} value, not ${Array.isArray(raw) ? 'a list' : 'an object'}` };
  switch (type) {
    case 'string':
      return { ok: true, value: String(raw).trim().slice(0, MAX_VALUE_CHARS) };
    case 'number':
      return numberOf(raw);
    case 'boolean':
      return booleanOf(raw);
    case 'date':
      return dateOf(String(raw));
    case 'url':
      return urlOf(String(raw));
  }
}

function numberOf(raw: unknown): Coerced {
  if (typeof raw === 'number') return Number.isFinite(raw) ? { ok: true, value: raw } : { ok: false, problem: 'give a finite number' };
  if (typeof raw !== 'string') return { ok: false, problem: 'give a number' };
  const value = parseNumber(raw.slice(0, HEAD));
  return value === undefined ? { ok: false, problem: `"${clip(raw, 60)}" is not a number; give the number alone, e.g. 1299.5` } : { ok: true, value };
}

/**
 * The first number written in a text, with either decimal convention: the last of `.` and `,` is
 * the decimal mark when both appear; one mark alone is a thousands separator when it appears more
 * than once or is followed by exactly three digits, else the decimal mark. Spaces and apostrophes
 * group thousands. A mark before the first digit starts the fraction (".99" is 0.99).
 */
export function parseNumber(text: string): number | undefined {
  let start = -1;
  for (let i = 0; i < text.length; i++) {
    if (text[i]! >= '0' && text[i]! <= '9') {
      start = i;
      break;
    }
  }
  if (start < 0) return undefined;
  let end = start;
  while (end < text.length && /[0-9.,'’\s\u00a0\u202f]/.test(text[end]!)) end++;
  // A trailing separator or space belongs to the words after the number ("12, then").
  let token = text.slice(start, end).replace(/[.,'’\s\u00a0\u202f]+$/, '');
  const negative = /[-−]\s*$/.test(text.slice(Math.max(0, start - 2), start));
  token = token.replace(/['’\s\u00a0\u202f]/g, '');
  // A mark right before the first digit is a decimal mark with its zero left out ("$.99").
  if (start > 0 && /[.,]/.test(text[start - 1]!) && /^\d+$/.test(token)) {
    const value = Number(`0.${token}`);
    return negative ? -value : value;
  }
  const lastDot = token.lastIndexOf('.');
  const lastComma = token.lastIndexOf(',');
  let decimal: '.' | ',' | undefined;
  if (lastDot >= 0 && lastComma >= 0) decimal = lastDot > lastComma ? '.' : ',';
  else if (lastDot >= 0 || lastComma >= 0) {
    const mark = lastDot >= 0 ? '.' : ',';
    const count = token.split(mark).length - 1;
    const after = token.length - token.lastIndexOf(mark) - 1;
    decimal = count > 1 || after === 3 ? undefined : mark;
  }
  const thousands = decimal === '.' ? ',' : decimal === ',' ? '.' : undefined;
  let plain = token;
  if (thousands) plain = plain.split(thousands).join('');
  if (!decimal) plain = plain.replace(/[.,]/g, '');
  else plain = plain.replace(decimal, '.');
  const value = Number(plain);
  if (!Number.isFinite(value)) return undefined;
  return negative ? -value : value;
}

function booleanOf(raw: unknown): Coerced {
  if (typeof raw === 'boolean') return { ok: true, value: raw };
  const word = String(raw).trim().toLowerCase();
  if (['true', 'yes', '1'].includes(word)) return { ok: true, value: true };
  if (['false', 'no', '0'].includes(word)) return { ok: true, value: false };
  return { ok: false, problem: `"${clip(String(raw), 60)}" is not true or false` };
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const ISO = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:$|[T\s])/;
const DOTTED = /^(\d{1,2})\.\s?(\d{1,2})\.\s?(\d{4})$/;
const DAY_MONTH = /^(\d{1,2})(?:st|nd|rd|th)?\.?\s+([a-z]{3,9})\.?,?\s+(\d{4})$/i;
const MONTH_DAY = /^([a-z]{3,9})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})$/i;
const SLASHED = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;

/** A calendar date as `YYYY-MM-DD`: ISO, `3.5.2024`, `3 May 2024`, `May 3, 2024`, or `03/05/2024` when the order is clear. */
function dateOf(raw: string): Coerced {
  const text = raw.trim().slice(0, HEAD);
  const fail = (why = 'give it as YYYY-MM-DD'): Coerced => ({ ok: false, problem: `"${clip(raw, 60)}" is not a date I can read; ${why}` });
  let m: RegExpExecArray | null;
  let ymd: [number, number, number] | undefined;
  if ((m = ISO.exec(text))) ymd = [+m[1]!, +m[2]!, +m[3]!];
  else if ((m = DOTTED.exec(text))) ymd = [+m[3]!, +m[2]!, +m[1]!];
  else if ((m = DAY_MONTH.exec(text))) ymd = withMonth(m[2]!, +m[3]!, +m[1]!);
  else if ((m = MONTH_DAY.exec(text))) ymd = withMonth(m[1]!, +m[3]!, +m[2]!);
  else if ((m = SLASHED.exec(text))) {
    const [a, b] = [+m[1]!, +m[2]!];
    // 13/05/2024 is day first, 05/13/2024 month first; 03/05/2024 could be either.
    if (a > 12 && b <= 12) ymd = [+m[3]!, b, a];
    else if (b > 12 && a <= 12) ymd = [+m[3]!, a, b];
    else return fail('the day and month could be either way round: give it as YYYY-MM-DD');
  }
  if (!ymd) return fail();
  const [y, mo, d] = ymd;
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return fail('there is no such day');
  return { ok: true, value: `${String(y).padStart(4, '0')}-${String(mo).padStart(2, '0')}-${String(d).padStart(2, '0')}` };
}

function withMonth(name: string, year: number, day: number): [number, number, number] | undefined {
  const month = MONTHS.indexOf(name.slice(0, 3).toLowerCase());
  return month < 0 ? undefined : [year, month + 1, day];
}

function urlOf(raw: string): Coerced {
  const text = raw.trim();
  if (text.length > MAX_VALUE_CHARS) return { ok: false, problem: `the address is longer than ${MAX_VALUE_CHARS} characters` };
  const url = webURL(text);
  if (url) return { ok: true, value: url.href };
  return { ok: false, problem: `"${clip(raw, 60)}" is not an absolute http(s) address; give the whole address, starting with https://` };
}
