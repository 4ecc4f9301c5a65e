/**
 * The rules of a plan that its schema cannot say: ids unique, dependencies that exist and form no
 * cycle, a `from_step` tab that names a dependency's URL field, tabs that are open, addresses
 * that are web addresses. Each problem is one sentence in English: the planner's repair round
 * shows them to the model, and the plans service to the user.
 */
import type { Plan, PlanStep } from '../../shared/plan';
import { clip } from '../clip';
import { webOrigin } from './web-address';

/** `restriction`: why FoxAgent cannot work in that tab (a browser page, a restricted site), as `OpenTab` says. */
export function checkPlan(plan: Plan, tabs: readonly { id: number; restriction?: string }[]): string[] {
  const problems: string[] = [];
  const byId = new Map<string, PlanStep>();
  for (const step of plan.steps) {
    if (byId.has(step.id)) problems.push(`Two steps have the id "${step.id}"; each step needs its own id.`);
    else byId.set(step.id, step);
  }
  const open = new Map(tabs.map((tab) => [tab.id, tab.restriction]));
  for (const step of plan.steps) {
    problems.push(...dependencyProblems(step, byId), ...tabProblems(step, byId, open), ...fieldProblems(step));
  }
  const cycle = findCycle(plan.steps, byId);
  if (cycle) problems.push(`The steps depend on each other in a circle (${cycle.join(' → ')}); a step can only use steps that finish before it.`);
  return problems;
}

/** No step may interact or navigate: the plan only reads (opening its own tabs is reading). */
export function isReadOnly(plan: Plan): boolean {
  return plan.steps.every((step) => step.may.length === 0);
}

/**
 * The site (origin) a step works on, as far as it is known before it runs: its open tab's, or
 * its address's. A tab an earlier step's URL decides has no known site yet: none is returned.
 */
export function sitesOf(step: PlanStep, tabs: readonly { id: number; url: string }[]): string[] {
  const where = step.tab;
  const url = where.kind === 'tab' ? tabs.find((tab) => tab.id === where.tabId)?.url : where.kind === 'url' ? where.url : undefined;
  const origin = url === undefined ? undefined : webOrigin(url);
  return origin ? [origin] : [];
}

/** The origin of an http(s) address; undefined for anything else. */
function dependencyProblems(step: PlanStep, byId: ReadonlyMap<string, PlanStep>): string[] {
  const problems: string[] = [];
  for (const dep of new Set(step.dependsOn)) {
    if (dep === step.id) problems.push(`Step "${step.id}" depends on itself.`);
    else if (!byId.has(dep)) problems.push(`Step "${step.id}" depends on "${dep}", but there is no step "${dep}".`);
  }
  return problems;
}

function tabProblems(step: PlanStep, byId: ReadonlyMap<string, PlanStep>, open: ReadonlyMap<number, string | undefined>): string[] {
  const tab = step.tab;
  switch (tab.kind) {
    case 'tab':
      if (!open.has(tab.tabId)) return [`Step "${step.id}" works in tab ${tab.tabId}, which is not open; use one of the open tabs' ids or a URL.`];
      return open.get(tab.tabId) === undefined ? [] : [`Step "${step.id}" works in tab ${tab.tabId}, a page FoxAgent cannot work in; use another tab or a URL.`];
    case 'url':
      return webOrigin(tab.url) ? [] : [`Step "${step.id}" opens "${clip(tab.url, 80)}", which is not an http or https address.`];
    case 'from_step': {
      if (!step.dependsOn.includes(tab.stepId)) return [`Step "${step.id}" takes its URL from step "${tab.stepId}", so it must list "${tab.stepId}" in dependsOn.`];
      const source = byId.get(tab.stepId);
      if (!source) return [];
      const field = source.fields.find((f) => f.name === tab.field);
      if (!field) return [`Step "${step.id}" takes its URL from field "${tab.field}" of step "${tab.stepId}", but that step returns no such field.`];
      if (field.type !== 'url') return [`Step "${step.id}" takes its URL from field "${tab.field}" of step "${tab.stepId}", which is a ${field.type}, not a url.`];
      return [];
    }
  }
}

function fieldProblems(step: PlanStep): string[] {
  const seen = new Set<string>();
  const problems: string[] = [];
  for (const field of step.fields) {
    if (seen.has(field.name)) problems.push(`Step "${step.id}" returns the field "${field.name}" twice.`);
    seen.add(field.name);
  }
  return problems;
}

/** A cycle among the dependencies (self-dependencies are reported on their own), as ids in order. */
function findCycle(steps: readonly PlanStep[], byId: ReadonlyMap<string, PlanStep>): string[] | undefined {
  const state = new Map<string, 'visiting' | 'done'>();
  const path: string[] = [];
  const visit = (id: string): string[] | undefined => {
    const seen = state.get(id);
    if (seen === 'done') return undefined;
    if (seen === 'visiting') return [...path.slice(path.indexOf(id)), id];
    state.set(id, 'visiting');
    path.push(id);
    for (const dep of byId.get(id)?.dependsOn ?? []) {
      if (dep === id || !byId.has(dep)) continue;
      const cycle = visit(dep);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(id, 'done');
    return undefined;
  };
  for (const step of steps) {
    const cycle = visit(step.id);
    if (cycle) return cycle;
  }
  return undefined;
}
