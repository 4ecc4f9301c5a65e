/**
 * A plan's answer, composed from what its steps returned, with no model call: nothing in it is
 * invented. Steps that return fields make a Markdown table, one row per step, its first cell a
 * link that brings the step's tab to the front (`foxagent:tab/<id>`, which the sidebar turns into
 * a button); a value the step did not find, or could not get because it failed or was skipped,
 * is `—`, with the reason on a line under the table. Steps without fields make a list of what
 * each did. Every page-derived text is escaped so it stays text in a table cell, and clipped.
 */
import type { FieldValue, PlanRecord, PlanStep, StepStatus } from '../../shared/plan';
import { webOrigin, webURL } from './web-address';
import { clip } from '../clip';

const MISSING = '—';
const CELL_CHARS = 200;
const LABEL_CHARS = 60;
const LINE_CHARS = 500;

type TabNames = ReadonlyMap<number, { title: string; url: string }>;

/** `closing`: tabs the plan opened that close when it ends; their rows link to the page's address instead. */
export function composeAnswer(record: PlanRecord, tabs: TabNames, closing: ReadonlySet<number> = new Set()): string {
  const statusOf = new Map(record.steps.map((status) => [status.id, status]));
  const rows = record.plan.steps.map((step) => ({ step, status: statusOf.get(step.id) }));
  const withFields = rows.filter((row) => row.step.fields.length);
  const without = rows.filter((row) => !row.step.fields.length);
  const parts: string[] = [];
  if (withFields.length) parts.push(table(withFields, tabs, closing));
  if (without.length) parts.push(without.map(({ step, status }) => `- ${escapeMarkdown(clip(step.goal, LINE_CHARS))} — ${outcomeOf(status)}`).join('\n'));
  return parts.join('\n\n');
}

interface Row {
  step: PlanStep;
  status: StepStatus | undefined;
}

function table(rows: readonly Row[], tabs: TabNames, closing: ReadonlySet<number>): string {
  const names: string[] = [];
  for (const { step } of rows) for (const field of step.fields) if (!names.includes(field.name)) names.push(field.name);
  const lines = [`| Source | ${names.map(escapeMarkdown).join(' | ')} |`, `| --- | ${names.map(() => '---').join(' | ')} |`];
  const missing: string[] = [];
  for (const { step, status } of rows) {
    const asked = new Set(step.fields.map((f) => f.name));
    const values = status?.state === 'done' ? (status.fields ?? {}) : {};
    const lacking: string[] = [];
    const cells = names.map((name) => {
      if (!asked.has(name)) return '';
      const value = values[name];
      if (value === undefined || value === null) {
        lacking.push(name);
        return MISSING;
      }
      return escapeMarkdown(clip(formatValue(value), CELL_CHARS));
    });
    const source = sourceOf(step, status, tabs, closing);
    lines.push(`| ${source.cell} | ${cells.join(' | ')} |`);
    if (lacking.length) missing.push(`Missing: ${source.plain} — ${lacking.map(escapeMarkdown).join(', ')}: ${escapeMarkdown(clip(reasonOf(status, values, lacking), LINE_CHARS))}`);
  }
  // Each missing line is a paragraph of its own, under the table.
  return [lines.join('\n'), ...missing].join('\n\n');
}

/**
 * The step's source: its tab's title (or site) as a link that focuses the tab, when the step had a
 * tab; a tab that closes with the plan links to its page's web address instead (none: plain text).
 */
function sourceOf(step: PlanStep, status: StepStatus | undefined, tabs: TabNames, closing: ReadonlySet<number>): { cell: string; plain: string } {
  const tabId = status?.tabId ?? (step.tab.kind === 'tab' ? step.tab.tabId : undefined);
  const tab = tabId === undefined ? undefined : tabs.get(tabId);
  const url = tab?.url ?? (step.tab.kind === 'url' ? step.tab.url : undefined);
  const site = status?.site ?? (url ? webOrigin(url) : undefined);
  const host = site ? site.replace(/^https?:\/\//, '') : undefined;
  const name = escapeMarkdown(clip(tab?.title?.trim() || host || `step ${step.id}`, LABEL_CHARS));
  if (tabId === undefined) return { cell: name, plain: name };
  if (!closing.has(tabId)) return { cell: `[${name}](foxagent:tab/${tabId})`, plain: name };
  const address = linkAddress(url);
  return { cell: address ? `[${name}](${address})` : name, plain: name };
}

/** A page's http(s) address as a Markdown link target: nothing in it can end the link early. */
function linkAddress(url: string | undefined): string | undefined {
  const parsed = url && url.length <= 2000 ? webURL(url) : undefined;
  return parsed?.href.replace(/[()\s<>[\]\\`]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

function reasonOf(status: StepStatus | undefined, values: Record<string, FieldValue>, lacking: readonly string[]): string {
  switch (status?.state) {
    case 'failed':
      return `the step failed${status.reason ? `: ${status.reason}` : ''}`;
    case 'skipped':
      return `the step was skipped${status.reason ? `: ${status.reason}` : ''}`;
    case 'done':
      return lacking.every((name) => values[name] === null) ? 'not found on the page' : 'the step did not return it';
    case undefined:
      return 'the step did not run';
    default:
      return 'the step did not finish';
  }
}

function outcomeOf(status: StepStatus | undefined): string {
  const said = (text: string | undefined) => escapeMarkdown(clip(text ?? '', LINE_CHARS));
  switch (status?.state) {
    case 'done':
      return status.summary ? said(status.summary) : 'done';
    case 'failed':
      return `failed${status.reason ? `: ${said(status.reason)}` : ''}`;
    case 'skipped':
      return `skipped${status.reason ? `: ${said(status.reason)}` : ''}`;
    default:
      return 'did not finish';
  }
}

/** A value as plain text: numbers without exponent or grouping, booleans as yes/no. */
export function formatValue(value: Exclude<FieldValue, null>): string {
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'number') {
    if (Number.isInteger(value) && Math.abs(value) < 1e21) return value.toFixed(0);
    return String(Number(value.toPrecision(12)));
  }
  return value;
}

/**
 * Text that stays text in a Markdown table cell: one line, and no character that starts markup
 * (a link needs `[`, an image `![`, both escaped). A bare web address may still be shown as a
 * link, as in any answer.
 */
export function escapeMarkdown(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/[\\`*_[\]~|>]/g, (ch) => `\\${ch}`);
}
