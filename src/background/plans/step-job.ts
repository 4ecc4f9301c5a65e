import type { Localized } from '../../shared/i18n';
import type { FieldRecord, PlanStep, StepStatus } from '../../shared/plan';
import type { PlanGrant } from '../tools/registry';

/** What a running step reports as it goes: its tab and site, its current action, asking or handed over. */
export type StepProgress = Partial<Pick<StepStatus, 'tabId' | 'site' | 'action' | 'actionText' | 'reason' | 'reasonText'>> & {
  state?: Extract<StepStatus['state'], 'running' | 'asking' | 'paused'>;
};

/** One step of a plan, as the plans service hands it to the step runner. */
export interface StepJob {
  planId: string;
  planTitle: string;
  conversationId: string;
  step: PlanStep;
  /** The fields each dependency returned, by step id (values came from pages: untrusted). */
  inputs: Record<string, FieldRecord>;
  /** The site (origin) each dependency worked on, by step id, where it is known (absent: none known). */
  inputSites?: Record<string, string>;
  /** The tab the step worked in before (a resumed or retried step): reused when the plan opened it and it is still open. */
  previousTabId?: number;
  /** Tabs the plan opened so far: the only ones a step may reuse, and where its own go into one group. */
  openedTabs: readonly number[];
  grant: PlanGrant;
  /** Aborted when the plan is stopped or spends its budget. */
  signal: AbortSignal;
  progress(patch: StepProgress): void;
  /** One model call made (the plan's budget counts them). */
  modelCall(): void;
  /** The plan opened this tab: closed at the end unless the settings keep it. */
  opened(tabId: number): void;
}

/**
 * How a step ended. `stopped`: its run was stopped (by the plan, or by Stop in the chat, which
 * stops the whole plan); otherwise a failure says why, in English and as keys.
 */
export type StepOutcome =
  | { ok: true; fields?: FieldRecord; summary?: string }
  | { ok: false; reason: Localized; stopped?: boolean };

export type StepRunner = (job: StepJob) => Promise<StepOutcome>;
