/**
 * A scripted model for workflow plans. Steps run at the same time, so replies are chosen by what
 * each request holds, never by order: the planner's request is the one offered `propose_plan`; a
 * step's request starts from its goal (the first user message). By default a step reads its page
 * with `read_page` and returns the price and delivery time it finds in that tool result, so a
 * wrong page read gives a wrong answer table.
 */
import type { RecordedRequest, ScriptedReply } from './llm-server/types';

type Message = { role?: string; content?: unknown; tool_calls?: unknown[] };

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part: { text?: string }) => part?.text ?? '').join('\n');
  return '';
}

const messagesOf = (request: RecordedRequest): Message[] => (request.body?.messages ?? []) as Message[];

export function isPlannerRequest(request: RecordedRequest): boolean {
  return JSON.stringify(request.body?.tools ?? []).includes('"propose_plan"') || messagesOf(request).some((m) => m.role === 'system' && textOf(m.content).includes('propose_plan'));
}

/** A step's goal: the request its agent loop started from. */
export function goalOf(request: RecordedRequest): string {
  return textOf(messagesOf(request).find((m) => m.role === 'user')?.content);
}

/** The tool results the step's model has been given so far, oldest first. */
export function toolResults(request: RecordedRequest): string[] {
  return messagesOf(request)
    .filter((m) => m.role === 'tool')
    .map((m) => textOf(m.content));
}

/** A price as a shop writes it (`€39.90`, `34,50 €`, `EUR 42.00`): the first one in the text. */
export function priceIn(text: string): number | null {
  const found = /(?:€|EUR)\s*(\d{1,5}[.,]\d{2})|(\d{1,5}[.,]\d{2})\s*(?:€|EUR)/.exec(text);
  const digits = found?.[1] ?? found?.[2];
  return digits ? Number(digits.replace(',', '.')) : null;
}

/** Days of delivery as a shop writes it (`Delivery in 2 days`, `Ships within 5 days`, `1 day`). */
export function deliveryDaysIn(text: string): number | null {
  const found = /\b(\d{1,2})\s*days?\b/.exec(text);
  return found ? Number(found[1]) : null;
}

export type StepReply = (request: RecordedRequest, turn: number) => ScriptedReply;

/** Reads the page, then returns the price and delivery days found in what `read_page` gave. */
export const readThenReturn =
  (firstDelayMs = 0): StepReply =>
  (request, turn) => {
    if (turn === 0) return { toolCalls: [{ name: 'read_page', arguments: {} }], delayMs: firstDelayMs };
    const page = toolResults(request).at(-1) ?? '';
    return { toolCalls: [{ name: 'return_fields', arguments: { fields: { price: priceIn(page), delivery_days: deliveryDaysIn(page) } } }] };
  };

export interface PlanModel {
  /** The server's reply to any request. */
  reply(request: RecordedRequest): ScriptedReply;
}

/**
 * `plan()`: the `propose_plan` arguments (built when the planner asks, so tab ids are known);
 * `steps`: by a word of a step's goal, how that step's model answers (default: `readThenReturn()`).
 */
export function planModel({ plan, steps = {}, fallback = readThenReturn() }: { plan: () => Record<string, unknown>; steps?: Record<string, StepReply>; fallback?: StepReply }): PlanModel {
  return {
    reply(request) {
      if (isPlannerRequest(request)) return { toolCalls: [{ name: 'propose_plan', arguments: plan() }] };
      const goal = goalOf(request);
      const script = Object.entries(steps).find(([word]) => goal.includes(word))?.[1] ?? fallback;
      // A step's turn: how many of its own tool calls have had their results.
      return script(request, toolResults(request).length);
    },
  };
}

/** Step requests whose goal contains `word`. */
export function stepRequests(requests: RecordedRequest[], word: string): RecordedRequest[] {
  return requests.filter((r) => !isPlannerRequest(r) && goalOf(r).includes(word));
}

/** Whether two requests of different steps were open at the same time on the server. */
export function overlappingSteps(requests: RecordedRequest[]): boolean {
  const steps = requests.filter((r) => !isPlannerRequest(r));
  return steps.some((a) => steps.some((b) => goalOf(a) !== goalOf(b) && a.at < (b.endedAt ?? Infinity) && b.at < (a.endedAt ?? Infinity)));
}
