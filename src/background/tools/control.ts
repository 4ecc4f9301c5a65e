import { z } from 'zod';
import { say } from '../../shared/i18n';
import type { HandOverRequest } from '../handover';
import { defineTool, previewOf } from './registry';

/** Ends the task. The summary is what the user reads. */
export const doneTool = defineTool({
  name: 'done',
  brief: 'Finish the task, with a short summary for the user.',
  description: 'Finish the task. Call this once everything the user asked for is done, with a short summary of what you did and found.',
  input: z.object({ summary: z.string().min(1).describe('What was done, in one or two sentences, for the user.') }),
  risk: 'read',
  ends: true,
  timeoutMs: 1000,
  run: async ({ summary }) => ({ ok: true, content: summary, preview: summary }),
});

/** Pauses the task to ask the user something only they know. */
export const askUserTool = defineTool({
  name: 'ask_user',
  brief: 'Ask the user something only they know; the task waits.',
  description: 'Ask the user a question when you cannot continue without their input (a choice, a missing detail). The task pauses until they answer.',
  input: z.object({ question: z.string().min(1).describe('The question, addressed to the user.') }),
  risk: 'read',
  timeoutMs: 1000,
  run: async ({ question }) => ({ ok: true, content: `Asked the user: ${question}`, preview: question, question }),
});

export const CONTROL_TOOLS = [doneTool, askUserTool] as const;

export const HAND_OVER = 'hand_over';
/** How long a task waits for the user to do what it handed over (a login can take a while). */
const HAND_OVER_WAIT_MS = 30 * 60_000;

/** Where a hand-over waits for the user's Continue. */
export interface HandOvers {
  wait(request: HandOverRequest, signal: AbortSignal): Promise<boolean>;
}

/**
 * Hands the task over to the user for what only they can do (log in, solve a captcha, make a
 * choice): the task pauses with its tab in front until they press Continue.
 */
export function createHandOverTool(handovers: HandOvers) {
  return defineTool({
    name: HAND_OVER,
    brief: 'Let the user do what only they can (log in, solve a captcha); the task waits.',
    description:
      'Hand the task over to the user when the page needs something only they can do: log in, solve a captcha, make a personal choice. Their tab comes to the front and the task waits until they press Continue; then read the page again.',
    input: z.object({ need: z.string().min(1).max(500).describe('What the user must do, in one short sentence addressed to them.') }),
    risk: 'read',
    // Rarely needed: a small model's compact set leaves it out (a call to it still widens the set).
    fullOnly: true,
    timeoutMs: HAND_OVER_WAIT_MS,
    run: async ({ need }, ctx) => {
      const { task } = ctx;
      const continued = await handovers.wait(
        { runId: task.runId ?? '', conversationId: ctx.conversationId, ...task.planStep, ...(task.tabId !== undefined ? { tabId: task.tabId } : {}), need },
        ctx.signal,
      );
      if (!continued) return { ok: false, content: 'The task was stopped while waiting for the user.', ...previewOf(say('previewStopped')) };
      return { ok: true, content: 'The user says it is done. Read the page again before going on.', ...previewOf(say('handOverDone')) };
    },
  });
}
