import { say, type Localized } from '../../shared/i18n';
import type { Risk } from '../../shared/permissions';
import { english } from '../english';
import { DEFAULT_POLICY, type Policy, type PolicyStore } from './policies';
import { destructiveWord, pageSteered, targetText } from './target-checks';
import { tierOf, type TargetInfo } from './tiers';

export interface CallFacts {
  tool: string;
  risk: Risk;
  args: Record<string, unknown>;
  /** Origin of the page the call acts on. */
  origin: string;
  /** Origin of the page the user started the task on. */
  startOrigin?: string;
  /** For navigation and tab switches: the origin it leads to. */
  destinationOrigin?: string;
  /** A tab switch to another window than the one the task works in. */
  otherWindow?: boolean;
  target?: TargetInfo;
  /** What the user asked, in this conversation (to tell their words from the page's). */
  userText: string;
  /** The untrusted page text the model has seen in this task. */
  pageText: string;
}

export interface Evaluation {
  tier: Risk;
  policy: Policy;
  /** Why asking (or denying) was chosen, in English: for the audit log and the model. */
  why: string;
  /** The same reasons as catalogue keys, said one after the other: for the user's question. */
  whyText?: Localized[];
  /** Whether "always allow on this site" may be offered. */
  canAllowAlways: boolean;
}

/** Values the page's text supplies but the user never said: the mark of a prompt injection. */
export function pageSuppliedValue(facts: Pick<CallFacts, 'args' | 'userText' | 'pageText'>): string | undefined {
  const user = facts.userText.toLowerCase();
  const page = facts.pageText.toLowerCase();
  for (const [key, value] of Object.entries(facts.args)) {
    if (key === 'reason' || typeof value !== 'string') continue;
    const candidates = key === 'url' ? [hostOf(value) ?? value] : [value];
    for (const candidate of candidates) {
      // A bounded prefix is enough to tell where a value came from, and keeps the search linear
      // whatever length a model writes.
      const v = candidate.trim().slice(0, 256).toLowerCase();
      if (v.length >= 4 && page.includes(v) && !user.includes(v)) return candidate;
    }
  }
  return undefined;
}

function hostOf(url: string): string | undefined {
  try {
    return new URL(/^[a-z]+:/i.test(url) ? url : `https://${url}`).hostname.replace(/^www\./, '');
  } catch {
    return undefined;
  }
}

/**
 * The harbor-style decision for one call: compute the call's tier from the tool and what it
 * touches, look up the most specific rule, then escalate to asking whatever a hostile page could
 * have steered (a different site than the user started on, values only the page supplied).
 */
export async function evaluate(facts: CallFacts, store: Pick<PolicyStore, 'find' | 'sensitiveSites'>): Promise<Evaluation> {
  const sensitiveSite = (await store.sensitiveSites()).includes(facts.origin);
  const crossOrigin = facts.destinationOrigin !== undefined && facts.destinationOrigin !== facts.origin;
  const tier = tierOf({ risk: facts.risk, tool: facts.tool, target: facts.target, crossOrigin, sensitiveSite });
  const rule = await store.find(facts.origin, facts.tool, tier);
  let policy: Policy = rule?.policy ?? DEFAULT_POLICY[tier];
  let why: Localized[] = [rule ? (rule.origin === '*' ? say('whyRuleEverySite') : say('whyRule', rule.origin)) : say('whyDefault', tier)];

  if (tier === 'sensitive' && policy === 'allow') {
    policy = 'ask';
    why = [say('whySensitive')];
  }
  // What a hostile page could have steered is asked even where a rule allows it, and when the
  // call is asked anyway, the user is told that this is why.
  const concern = tier === 'read' || policy === 'deny' ? undefined : concernOf(facts, crossOrigin);
  if (concern) {
    policy = 'ask';
    why = concern;
  }
  return { tier, policy, why: why.map(english).join('; '), whyText: why, canAllowAlways: tier !== 'sensitive' };
}

function concernOf(facts: CallFacts, crossOrigin: boolean): Localized[] | undefined {
  const concerns = [...whereConcern(facts, crossOrigin), ...targetConcern(facts)];
  return concerns.length ? concerns : undefined;
}

function whereConcern(facts: CallFacts, crossOrigin: boolean): Localized[] {
  const supplied = pageSuppliedValue(facts);
  const fromPage = supplied ? [say('whyFromPage', supplied.slice(0, 60))] : [];
  if (facts.startOrigin && facts.origin !== facts.startOrigin) return [say('whyOtherSite', facts.origin, facts.startOrigin), ...fromPage];
  if (crossOrigin) {
    const destination = facts.destinationOrigin ?? '';
    return [facts.otherWindow ? say('whyLeavesSiteOtherWindow', destination) : say('whyLeavesSite', destination), ...fromPage];
  }
  if (facts.otherWindow) return [say('whyOtherWindow'), ...fromPage];
  return fromPage;
}

/** Tools that only look at an element: pointing the agent to it or its name cannot make them harmful. */
const LOOKING_ONLY = new Set(['scroll', 'hover', 'hover_at']);

/**
 * An element the page's text points the agent to (and the user did not name), or whose name or
 * form is destructive: asked about even where a rule allows, naming the element.
 */
function targetConcern(facts: CallFacts): Localized[] {
  const target = facts.target;
  if (!target || LOOKING_ONLY.has(facts.tool)) return [];
  const element = targetText(target);
  const reasons: Localized[] = [];
  if (pageSteered(target, facts.pageText, facts.userText)) reasons.push(say('whySteered', element));
  const word = destructiveWord(target);
  if (word) reasons.push(reasons.length ? say('whyDestructiveToo', word) : say('whyDestructive', element, word));
  return reasons;
}
