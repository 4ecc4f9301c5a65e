/**
 * Reads a constrained step as it streams: the text of a final answer is passed on as it arrives
 * (decoded from its JSON string), and the whole reply is read once at the end into a call or an
 * answer. One pass over each chunk, constant state: no re-scan of what came before, whatever
 * size the reply reaches.
 */
import { STEP_FIELDS } from './schema';

export type Step =
  | { kind: 'call'; name: string; arguments: Record<string, unknown>; argumentsError?: string }
  | { kind: 'answer'; text: string }
  /** The reply is not a step object: the server did not keep to the schema. */
  | { kind: 'invalid'; problem: string };

/** Keys longer than this are not ours; only their first characters are kept while scanning. */
const MAX_KEY_CHARS = 32;

const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

export class StepReader {
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** Hex digits of a `\uXXXX` escape in the answer, while they arrive. */
  private hex: string | undefined;
  /** The top-level key being read, while inside it. */
  private key: string | undefined;
  private lastKey = '';
  /** After a top-level `:` and before its value starts. */
  private awaitingValue = false;
  /** Inside the top-level answer string: its characters are shown. */
  private inAnswer = false;

  /** The answer text this chunk adds (empty while the reply is anything else). */
  push(chunk: string): string {
    let out = '';
    for (let i = 0; i < chunk.length; i++) {
      const ch = chunk[i]!;
      if (this.inString) out += this.stringChar(ch);
      else this.structuralChar(ch);
    }
    return out;
  }

  private stringChar(ch: string): string {
    if (this.hex !== undefined) {
      this.hex += ch;
      if (this.hex.length < 4) return '';
      const code = Number.parseInt(this.hex, 16);
      this.hex = undefined;
      return Number.isNaN(code) ? '' : String.fromCharCode(code);
    }
    if (this.escaped) {
      this.escaped = false;
      if (ch === 'u' && this.inAnswer) {
        this.hex = '';
        return '';
      }
      return this.take(ESCAPES[ch] ?? '');
    }
    if (ch === '\\') {
      this.escaped = true;
      return '';
    }
    if (ch === '"') {
      this.inString = false;
      if (this.key !== undefined) [this.lastKey, this.key] = [this.key, undefined];
      this.inAnswer = false;
      return '';
    }
    return this.take(ch);
  }

  /** A decoded character of a string: shown when it is the answer's, kept when it is a top-level key's. */
  private take(ch: string): string {
    if (this.inAnswer) return ch;
    if (this.key !== undefined && this.key.length < MAX_KEY_CHARS) this.key += ch;
    return '';
  }

  private structuralChar(ch: string): void {
    if (ch === ' ' || ch === '\n' || ch === '\r' || ch === '\t') return;
    const topLevel = this.depth === 1;
    if (ch === '"') {
      this.inString = true;
      if (topLevel && !this.awaitingValue) this.key = '';
      else if (topLevel && this.lastKey === STEP_FIELDS.answer) this.inAnswer = true;
    } else if (ch === '{' || ch === '[') {
      this.depth++;
    } else if (ch === '}' || ch === ']') {
      this.depth--;
    } else if (ch === ':' && topLevel) {
      this.awaitingValue = true;
      return;
    } else if (ch === ',' && topLevel) {
      this.lastKey = '';
    }
    this.awaitingValue = false;
  }
}

/** The whole reply, read once: a call of a tool, a final answer, or what is wrong with it. */
export function readStep(reply: string): Step {
  let value: unknown;
  try {
    value = JSON.parse(reply);
  } catch {
    return { kind: 'invalid', problem: reply.trim() ? 'The reply is not one complete JSON object.' : 'The reply is empty.' };
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return { kind: 'invalid', problem: 'The reply is not a JSON object.' };
  const step = value as Record<string, unknown>;
  const name = step[STEP_FIELDS.tool];
  if (typeof name === 'string' && name) return { kind: 'call', name, ...argumentsOf(step[STEP_FIELDS.arguments]) };
  const answer = step[STEP_FIELDS.answer];
  if (typeof answer === 'string') return { kind: 'answer', text: answer };
  return { kind: 'invalid', problem: `The reply has neither "${STEP_FIELDS.tool}" nor "${STEP_FIELDS.answer}".` };
}

function argumentsOf(value: unknown): { arguments: Record<string, unknown>; argumentsError?: string } {
  if (value === undefined) return { arguments: {} };
  if (value && typeof value === 'object' && !Array.isArray(value)) return { arguments: value as Record<string, unknown> };
  return { arguments: {}, argumentsError: `The "${STEP_FIELDS.arguments}" of a call must be a JSON object.` };
}
