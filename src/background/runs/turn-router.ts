import type { Intent } from '../../shared/conversation';

/** Where a classified turn goes: one streamed answer, or the agent loop (later: a workflow plan). */
export type Route = 'answer' | 'agent';

export function routeTurn(intent: Intent): Route {
  return intent.kind === 'action' ? 'agent' : 'answer';
}
