import type { Plan, PlanRecord } from '../../shared/plan';
import type { HandOver, OpenTab } from '../../shared/protocol';

/** What the sidebar may do with plans: each answers with the plan's record as it is afterwards. */
export interface PlanControl {
  list(conversationId: string): Promise<PlanRecord[]>;
  /** Approves the plan, with the user's edits when given, and starts it. */
  run(planId: string, edited?: Plan): Promise<PlanRecord>;
  cancel(planId: string): Promise<PlanRecord>;
  stop(planId: string): Promise<PlanRecord>;
  retryStep(planId: string, stepId: string): Promise<PlanRecord>;
  resume(planId: string): Promise<PlanRecord>;
}

/** Tasks handed over to the user, waiting for Continue. */
export interface HandOverControl {
  pending(): HandOver[];
  /** False when there is no such hand-over (it ended, or was stopped). */
  continue(id: string): boolean;
}

/** How a turn hands a plan it made to the plans service. */
export interface PlanStarter {
  /**
   * Keeps a proposed plan for the turn's assistant message and tells the sidebar (`plan/updated`);
   * starts it at once when it only reads and the settings let read-only plans run without asking.
   */
  propose(input: { conversationId: string; messageId: string; request: string; plan: Plan; tabs: readonly OpenTab[] }): Promise<PlanRecord>;
}
