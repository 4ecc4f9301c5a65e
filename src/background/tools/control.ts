import { z } from 'zod';
import { defineTool } from './registry';

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
