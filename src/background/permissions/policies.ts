import { z } from 'zod';
import { PolicyRuleSchema, siteOrigin, type Policy, type PolicyRule } from '../../shared/permissions';
import type { Risk } from '../../shared/permissions';

export { PolicyRuleSchema, PolicySchema, type Policy, type PolicyRule } from '../../shared/permissions';

/** What a careful user would want before saying anything: read freely, ask before acting. */
export const DEFAULT_POLICY: Record<Risk, Policy> = { read: 'allow', interact: 'ask', navigate: 'ask', sensitive: 'ask' };

export const tierSubject = (risk: Risk) => `tier:${risk}`;

const POLICIES_KEY = 'permissionPolicies';
const SENSITIVE_SITES_KEY = 'sensitiveSites';

export interface PolicyStorage {
  get(key: string): Promise<Record<string, unknown>>;
  set(items: Record<string, unknown>): Promise<void>;
}

/** The user's rules, kept in storage: viewable, editable and revocable in the options page. */
export class PolicyStore {
  private rules: PolicyRule[] | undefined;
  private sensitive: string[] | undefined;

  constructor(private readonly storage: PolicyStorage) {}

  async list(): Promise<PolicyRule[]> {
    if (!this.rules) {
      const parsed = z.array(PolicyRuleSchema).safeParse((await this.storage.get(POLICIES_KEY))[POLICIES_KEY]);
      this.rules = parsed.success ? parsed.data : [];
    }
    return this.rules;
  }

  /** The most specific rule: this site and tool, this site and tier, any site and tool, any site and tier. */
  async find(origin: string, tool: string, tier: Risk): Promise<PolicyRule | undefined> {
    const rules = await this.list();
    const candidates: [string, string][] = [
      [origin, tool],
      [origin, tierSubject(tier)],
      ['*', tool],
      ['*', tierSubject(tier)],
    ];
    for (const [o, s] of candidates) {
      const hit = rules.find((r) => r.origin === o && r.subject === s);
      if (hit) return hit;
    }
    return undefined;
  }

  /**
   * Adds or replaces a rule. Sensitive actions can never be allowed in advance — not globally,
   * not per site: each one is asked.
   */
  async set(rule: Omit<PolicyRule, 'createdAt'>, now = Date.now()): Promise<void> {
    if (rule.policy === 'allow' && (rule.subject === tierSubject('sensitive') || rule.subject === 'submit_form')) {
      throw new Error('Sensitive actions are always asked; they cannot be allowed in advance.');
    }
    const origin = siteOrigin(rule.origin);
    const rules = (await this.list()).filter((r) => !(r.origin === origin && r.subject === rule.subject));
    this.rules = [...rules, { ...rule, origin, createdAt: now }];
    await this.storage.set({ [POLICIES_KEY]: this.rules });
  }

  async remove(origin: string, subject: string): Promise<void> {
    this.rules = (await this.list()).filter((r) => !(r.origin === origin && r.subject === subject));
    await this.storage.set({ [POLICIES_KEY]: this.rules });
  }

  async sensitiveSites(): Promise<string[]> {
    if (!this.sensitive) {
      const stored = (await this.storage.get(SENSITIVE_SITES_KEY))[SENSITIVE_SITES_KEY];
      this.sensitive = Array.isArray(stored) ? stored.filter((s): s is string => typeof s === 'string') : [];
    }
    return this.sensitive;
  }

  async setSensitiveSites(origins: string[]): Promise<void> {
    const typed = origins.map((o) => o.trim()).filter(Boolean);
    this.sensitive = [...new Set(typed.map(siteOrigin).filter((o) => o !== '*'))];
    await this.storage.set({ [SENSITIVE_SITES_KEY]: this.sensitive });
  }
}
