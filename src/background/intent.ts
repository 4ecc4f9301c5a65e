import type { Intent, IntentKind } from '../shared/conversation';


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

const COUNT = '(?:\\d{1,2}|two|three|four|five|six|seven|eight|nine|ten|few)';
const SITES = '(?:shops|stores|sites|websites|retailers|marketplaces)';

/**
 * Requests that span tabs: a workflow plan. A question about "these two tabs" is not among them:
 * it is answered from the pages in one call. Looked for in the first characters of a message.
 */
const PLAN_RULES: readonly { pattern: RegExp; reason: string }[] = [
  { pattern: new RegExp(`\\bcompare\\b.{1,200}?\\b(?:on|across|at|from|between|in) (?:these|those|the|my|both|all)(?: ${COUNT})? ${SITES}\\b`, 'i'), reason: 'compares across several sites' },
  { pattern: new RegExp(`\\bopen (?:the )?(?:first|top|next) ${COUNT} (?:results|links|hits|articles|items|pages|products)\\b.{0,40}?\\b(?:and|then)\\b`, 'i'), reason: 'opens several results and works through each' },
  { pattern: /\bopen (?:each|every|all(?: of)?(?: the)?) (?:results?|links?|articles?|products?)\b/i, reason: 'opens several results and works through each' },
  { pattern: new RegExp(`\\b(?:for|in|on|from) (?:each|every)(?: of)?(?: the| my| these| those)?(?: ${COUNT})?(?: open)? (?:tabs?|${SITES}|shop|store|site|website)\\b`, 'i'), reason: 'works through each tab or site' },
  { pattern: /\b(?:in|across|from|on) all(?: of)?(?: my| the| these| those)?(?: open)? tabs\b/i, reason: 'works in all open tabs' },
  { pattern: /\b(?:copy|transfer|move|take|bring)\b.{1,80}?\bfrom (?:the |my |this |that )?(?:[\w-]+ ){0,2}tab\b.{0,80}?\b(?:into|to|onto|in) (?:the |this |that |my )?(?:[\w-]+ ){0,3}(?:tab|form|page)\b/i, reason: 'copies from one tab into another' },
];

/** Characters of a message the plan rules read: a request says what it wants early. */
const PLAN_HEAD = 600;

/** The clear cases, decided without a model call. Undefined when the message is ambiguous. */
export function classifyByRules(text: string, hasHistory: boolean): Intent | undefined {
  const clean = text.trim();
  const head = clean.slice(0, PLAN_HEAD);
  for (const rule of PLAN_RULES) {
    if (rule.pattern.test(head)) return { kind: 'plan', reason: rule.reason, by: 'rules' };
  }
  for (const rule of RULES) {
    if (rule.pattern.test(clean)) return { kind: rule.kind, reason: rule.reason, by: 'rules' };
  }
  const words = clean.split(/\s+/).length;
  if (hasHistory && words <= 8 && FOLLOW_UP.test(clean)) return { kind: 'follow_up', reason: 'short follow-up to the previous answer', by: 'rules' };
  if (QUESTION.test(clean)) return { kind: 'question', reason: 'phrased as a question', by: 'rules' };
  return undefined;
}

/** The word the answering model replies with, alone, when the message asks for an action. */
export const ACT_MARKER = 'ACT';

/** Added to the answering prompt when no rule classified the message: one call answers or routes. */
export const ROUTING_NOTE = `If the user's last message asks you to do something in the browser or on the page (click, fill in, select, open, go to, buy, log in…) rather than to answer or explain, reply with exactly ${ACT_MARKER} and nothing else. Otherwise answer it.`;

/**
 * What the start of a reply says: 'act' (the marker alone, give or take emphasis and a full
 * stop), 'answer' (anything else), or undefined while it cannot tell yet. `ended`: the reply is
 * complete. Looks at the first few characters only.
 */
export function routeOfReply(reply: string, ended: boolean): 'act' | 'answer' | undefined {
  const head = reply.slice(0, 40).replace(/^[\s*_`"'“]+/, '');
  if (!head) return ended ? 'answer' : undefined;
  const word = head.slice(0, ACT_MARKER.length).toUpperCase();
  if (!ACT_MARKER.startsWith(word)) return 'answer';
  if (word.length < ACT_MARKER.length) return ended ? 'answer' : undefined;
  const rest = head.slice(ACT_MARKER.length);
  if (/^[\p{L}\p{N}]/u.test(rest)) return 'answer';
  if (rest.replace(/^[\s*_`"'”.!]+/, '')) return 'answer';
  return ended ? 'act' : undefined;
}
