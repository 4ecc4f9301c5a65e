/**
 * Permission data shared by the background (which decides and logs) and the options page (which
 * shows, edits, exports): policy rules and audit entries.
 */
import { z } from 'zod';

export const RiskSchema = z.enum(['read', 'interact', 'navigate', 'sensitive']);
export type Risk = z.infer<typeof RiskSchema>;

export const PolicySchema = z.enum(['allow', 'ask', 'deny']);
export type Policy = z.infer<typeof PolicySchema>;

/** A rule: on this origin ('*' for every site), for this tool or `tier:<risk>`, do this. */
export const PolicyRuleSchema = z.object({
  origin: z.string(),
  /** A tool name, or `tier:<risk>` for every tool of that tier. */
  subject: z.string(),
  policy: PolicySchema,
  createdAt: z.number(),
});
export type PolicyRule = z.infer<typeof PolicyRuleSchema>;

/**
 * The origin of a URL (`example.org/x` is taken as https). Pages without a host (file:, about:)
 * share one "origin" per scheme, e.g. `file:`, as the permission engine sees them.
 */
export function originOfUrl(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const parsed = new URL(/^[a-z][a-z0-9+.-]*:/i.test(url) ? url : `https://${url}`);
    return parsed.origin === 'null' ? parsed.protocol : parsed.origin;
  } catch {
    return undefined;
  }
}

/**
 * The origin a user means by what they typed in a rule or the sensitive-site list: `*` for every
 * site, `bank.example` or `https://bank.example/login` for `https://bank.example`, `file:` for
 * every local file.
 */
export function siteOrigin(input: string): string {
  const text = input.trim();
  if (text === '*') return '*';
  if (/^[a-z][a-z0-9+.-]*:$/i.test(text)) return text.toLowerCase();
  // Without "://" it is a host (perhaps with a port), not a scheme.
  const origin = text ? originOfUrl(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`) : undefined;
  if (!origin) throw new Error(`“${text}” is not a site address: write it like https://example.org, or * for every site.`);
  return origin;
}

/** One tool invocation, as the audit log keeps it. */
export interface AuditEntry {
  id: string;
  time: number;
  conversationId: string;
  tool: string;
  /** Arguments with secrets and typed passwords redacted. */
  args: Record<string, unknown>;
  origin: string;
  tier: Risk;
  decision: 'allowed' | 'denied';
  decidedBy: 'policy' | 'user' | 'timeout';
  why?: string;
  durationMs?: number;
  outcome: 'done' | 'failed' | 'denied' | 'skipped';
  summary?: string;
  /** The workflow plan and step the call was made in. */
  planId?: string;
  stepId?: string;
}

const CSV_COLUMNS: (keyof AuditEntry)[] = ['time', 'conversationId', 'tool', 'args', 'origin', 'tier', 'decision', 'decidedBy', 'why', 'durationMs', 'outcome', 'summary', 'planId', 'stepId'];

function csvCell(value: unknown): string {
  const text = value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  // Quote everything, and defuse spreadsheet formulas a page could have planted.
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return `"${safe.replace(/"/g, '""')}"`;
}

export function auditToCsv(entries: readonly AuditEntry[]): string {
  const rows = entries.map((e) => CSV_COLUMNS.map((c) => csvCell(c === 'time' ? new Date(e.time).toISOString() : e[c])).join(','));
  return [CSV_COLUMNS.join(','), ...rows].join('\n');
}
