/**
 * A turn that asks for a workflow plan: the open tabs, one planner call, then the plan handed to
 * the plans service for the turn's assistant message, which shows it as a card and says so in a
 * line. A planner failure is thrown to the turn's failure path, which keeps the user's text.
 */
import type { UserMessage } from '../../shared/conversation';
import { say, type Localized } from '../../shared/i18n';
import type { PlanRecord } from '../../shared/plan';
import { english } from '../english';
import type { PlanStarter } from '../plans/control';
import { escapeMarkdown } from '../plans/compose';
import { makePlan } from '../plans/planner';
import type { TurnRecorder } from '../turn-recorder';
import type { Run } from './registry';
import type { PageAccess, Session } from './turn';

export interface PlanTurnDeps {
  plans: PlanStarter;
  page?: PageAccess;
}

export async function planTurn(deps: PlanTurnDeps, session: Session, run: Run, conversationId: string, message: UserMessage, recorder: TurnRecorder): Promise<void> {
  const tabs = (await deps.page?.tabs?.().catch(() => undefined)) ?? [];
  const plan = await makePlan({ request: message.content, tabs, router: session.router, model: session.model, mode: session.settings.toolCallMode, signal: run.signal });
  // Stopped while planning: nothing is proposed.
  if (run.signal.aborted) return recorder.finish({ status: 'stopped' });
  const record = await deps.plans.propose({ conversationId, messageId: recorder.assistantId(), request: message.content, plan, tabs });
  recorder.setPlan(record.id);
  const said = planSaid(record);
  await recorder.finish({ text: english(said), said: [said] });
}

/** The line under the plan card: how many steps, the plan's title, and whether it waits for Run. */
function planSaid(record: PlanRecord): Localized {
  const count = record.plan.steps.length;
  const title = escapeMarkdown(record.plan.title.slice(0, 200));
  const running = record.status === 'running';
  if (count === 1) return say(running ? 'planRunningOne' : 'planProposedOne', title);
  return say(running ? 'planRunning' : 'planProposed', count, title);
}
