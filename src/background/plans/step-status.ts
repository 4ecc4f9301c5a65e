import type { Localized } from '../../shared/i18n';
import type { Plan, PlanRecord, StepStatus } from '../../shared/plan';
import { english } from '../english';

/** Every step of a plan, waiting. */
export function freshSteps(plan: Plan): StepStatus[] {
  return plan.steps.map((s) => ({ id: s.id, state: 'waiting', attempts: 0 }));
}

/** A step's status in the record (added, waiting, if an edit left it out). */
export function statusOf(record: PlanRecord, id: string): StepStatus {
  let status = record.steps.find((s) => s.id === id);
  if (!status) {
    status = { id, state: 'waiting', attempts: 0 };
    record.steps.push(status);
  }
  return status;
}

/** A step waits again: what its last attempt left is cleared (its tab is kept, to be reused). */
export function resetStep(record: PlanRecord, id: string): void {
  const status = statusOf(record, id);
  for (const key of ['action', 'actionText', 'fields', 'summary', 'reason', 'reasonText', 'startedAt', 'endedAt'] as const) delete status[key];
  status.state = 'waiting';
}

/** A step's reason: English for the record's readers, and the keys for the user's language. */
export function reasonOf(text: Localized): Pick<StepStatus, 'reason' | 'reasonText'> {
  return { reason: english(text).slice(0, 500), reasonText: text };
}
