import type { Intent, IntentKind } from '../shared/conversation';
import { LlmError, type LlmErrorCode } from './llm/errors';

/** Failures of the classifying call that the answering call would meet too. */
const SAME_FOR_ANSWER = new Set<LlmErrorCode>(['unauthorized', 'forbidden', 'ollama_origin', 'unknown_model', 'no_model', 'server_unreachable', 'aborted']);

type Rule = { kind: IntentKind; pattern: RegExp; reason: string };

/** Imperative verbs that change or move through a page. Matched at the start of a request. */
const ACTION_VERBS =
  'click|tap|press|push|hit|fill( in| out)?|type|enter|write|put|select|choose|pick|check|tick|uncheck|untick|toggle|open|close|go( to| back| forward)?|navigate|visit|browse|scroll|search( for)?|find and|look up|submit|send|post|log( me)? ?in|log( me)? ?out|sign( me)? ?in|sign( me)? ?up|sign( me)? ?out|register|add|remove|delete|buy|order|book|reserve|subscribe|download|upload|switch( to)?|reload|refresh|expand|collapse|sort|filter|play|pause|like|follow|reply|comment|accept|dismiss|hover';

const RULES: readonly Rule[] = [
  { kind: 'summarize', pattern: /\b(summari[sz]e|summary|summarise|tl;?dr|key (points|takeaways)|main points|gist|recap|in (a nutshell|short)|overview of (this|the) (page|article))\b/i, reason: 'asks for a summary' },
  { kind: 'action', pattern: new RegExp(`^(please\\s+|can you\\s+|could you\\s+|would you\\s+|now\\s+|then\\s+|and\\s+)*(${ACTION_VERBS})\\b`, 'i'), reason: 'starts with an action verb' },
  { kind: 'action', pattern: /\b(for me|on (this|the) (page|site|form))\b.*\b(click|fill|select|submit|open|log ?in|add|buy|book)\b|\b(click|fill in|submit|log ?in|add to (cart|basket))\b/i, reason: 'names a page action' },
  { kind: 'chat', pattern: /^(hi|hello|hey|thanks|thank you|ok|okay|cool|great|good (morning|evening|night))\b[\s!.?]*$/i, reason: 'a greeting or acknowledgement' },
];

const QUESTION = /\?\s*$|^(what|who|whom|whose|when|where|why|how|which|is|are|was|were|do|does|did|can|could|should|would|will|has|have|tell me|explain|describe|list|show me|compare|translate|define)\b/i;
const FOLLOW_UP = /^(and|also|more|why|how so|what about|and the|the (first|second|third|last|other) one|go on|continue|elaborate|explain (that|more)|really|which one|same (for|with))\b|^\W*(more|why|ok and|and then)\W*$/i;

/** The clear cases, decided without a model call. Undefined when the message is ambiguous. */
export function classifyByRules(text: string, hasHistory: boolean): Intent | undefined {
  const clean = text.trim();
  for (const rule of RULES) {
    if (rule.pattern.test(clean)) return { kind: rule.kind, reason: rule.reason, by: 'rules' };
  }
  const words = clean.split(/\s+/).length;
  if (hasHistory && words <= 8 && FOLLOW_UP.test(clean)) return { kind: 'follow_up', reason: 'short follow-up to the previous answer', by: 'rules' };
  if (QUESTION.test(clean)) return { kind: 'question', reason: 'phrased as a question', by: 'rules' };
  return undefined;
}

export const INTENT_PROMPT = `Classify the user's message to a browser assistant. Reply with exactly one word:
action — the user wants something done on the web page or browser (click, fill, open, navigate, buy…)
summarize — the user wants a summary of the page
question — the user asks about the page or wants information
chat — anything else (small talk, general knowledge)`;

const KINDS: readonly IntentKind[] = ['action', 'summarize', 'question', 'chat'];

/** Reads the one-word answer; anything else is not trusted. */
export function parseIntentReply(reply: string): IntentKind | undefined {
  const word = reply.replace(/<think>[\s\S]*?<\/think>/gi, '').trim().toLowerCase().match(/[a-z_]+/)?.[0];
  return KINDS.find((k) => k === word);
}

/**
 * Rules first; a short, cheap model call for what they cannot decide. If the model's answer is
 * unusable, the message is treated as a question: answering never acts on the page.
 */
export async function classifyIntent(text: string, hasHistory: boolean, askModel?: (system: string, text: string) => Promise<string>): Promise<Intent> {
  const byRules = classifyByRules(text, hasHistory);
  if (byRules || !askModel) return byRules ?? { kind: 'question', reason: 'no rule matched; answering is the safe default', by: 'rules' };
  try {
    const kind = parseIntentReply(await askModel(INTENT_PROMPT, text));
    if (kind) return { kind, reason: 'decided by the model', by: 'model' };
  } catch (error) {
    // A failed classification must not fail the message, unless the answer would fail the same
    // way: then the user hears why at once, instead of after a second request.
    if (error instanceof LlmError && SAME_FOR_ANSWER.has(error.code)) throw error;
  }
  return { kind: 'question', reason: 'the model’s classification was unusable; answering is the safe default', by: 'model' };
}
