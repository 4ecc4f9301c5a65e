import type { Intent } from '../../shared/conversation';

/** Where a classified turn goes: one streamed answer, the agent loop, or a workflow plan. */
export type Route = 'answer' | 'agent' | 'plan';

/** `asked`: the user asked for a plan themselves (the Plan toggle or `/plan`). */
export function routeTurn(intent: Intent, asked = false): Route {
  if (asked || intent.kind === 'plan') return 'plan';
  return intent.kind === 'action' ? 'agent' : 'answer';
}
