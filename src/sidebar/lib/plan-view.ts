/**
 * The plan card's pure parts: where a step works, in words the card shows; the overall progress;
 * and the user's edits to a proposed plan (each returns a new plan, the old one untouched).
 */
import type { Plan, PlanRecord, PlanStep, StepStatus, StepTab } from '../../shared/plan';

export interface TabInfo {
  id: number;
  title: string;
  url: string;
}

/** The origin of a URL, or the URL itself when it has none (shown as typed). */
export function originOf(url: string): string {
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? url : origin;
  } catch {
    return url;
  }
}

/** Where a step works, as the card shows it. */
export type StepSite =
  | { kind: 'tab'; tabId: number; title: string; origin: string }
  | { kind: 'closed-tab'; tabId: number }
  /** The open tabs are not known (yet): the tab by its id. */
  | { kind: 'tab-id'; tabId: number }
  | { kind: 'url'; url: string; origin: string }
  | { kind: 'from_step'; stepId: string; field: string };

/** `tabs`: the open tabs, or undefined while they are not known. */
export function siteOf(tab: StepTab, tabs: readonly TabInfo[] | undefined): StepSite {
  switch (tab.kind) {
    case 'tab': {
      if (!tabs) return { kind: 'tab-id', tabId: tab.tabId };
      const open = tabs.find((t) => t.id === tab.tabId);
      return open ? { kind: 'tab', tabId: open.id, title: open.title, origin: originOf(open.url) } : { kind: 'closed-tab', tabId: tab.tabId };
    }
    case 'url':
      return { kind: 'url', url: tab.url, origin: originOf(tab.url) };
    case 'from_step':
      return { kind: 'from_step', stepId: tab.stepId, field: tab.field };
  }
}

/** Steps that ended one way or another, of all: the progress bar. */
export function progressOf(record: PlanRecord): { ended: number; total: number } {
  const ended = record.steps.filter((s) => s.state === 'done' || s.state === 'failed' || s.state === 'skipped').length;
  return { ended, total: record.plan.steps.length };
}

/** A step's status by id (a step not started yet has none in an older record). */
export function statusOf(record: PlanRecord, stepId: string): StepStatus | undefined {
  return record.steps.find((s) => s.id === stepId);
}

/** Milliseconds a step has taken: until it ended, or until `now` while it runs. */
export function elapsedMs(status: StepStatus | undefined, now: number): number | undefined {
  if (status?.startedAt === undefined) return undefined;
  return Math.max(0, (status.endedAt ?? now) - status.startedAt);
}

function withSteps(plan: Plan, steps: PlanStep[]): Plan {
  return { ...plan, steps };
}

/** Removes a step; the steps that waited for it no longer do (a tab taken from it stays, and the background says so). */
export function removeStep(plan: Plan, stepId: string): Plan {
  return withSteps(
    plan,
    plan.steps.filter((s) => s.id !== stepId).map((s) => (s.dependsOn.includes(stepId) ? { ...s, dependsOn: s.dependsOn.filter((d) => d !== stepId) } : s)),
  );
}

/** Moves a step one place up (-1) or down (+1); at either end it stays. */
export function moveStep(plan: Plan, stepId: string, by: -1 | 1): Plan {
  const from = plan.steps.findIndex((s) => s.id === stepId);
  const to = from + by;
  if (from === -1 || to < 0 || to >= plan.steps.length) return plan;
  const steps = [...plan.steps];
  [steps[from], steps[to]] = [steps[to]!, steps[from]!];
  return withSteps(plan, steps);
}

export function rewordStep(plan: Plan, stepId: string, goal: string): Plan {
  return withSteps(plan, plan.steps.map((s) => (s.id === stepId ? { ...s, goal } : s)));
}

export function retabStep(plan: Plan, stepId: string, tab: StepTab): Plan {
  return withSteps(plan, plan.steps.map((s) => (s.id === stepId ? { ...s, tab } : s)));
}
