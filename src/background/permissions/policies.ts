import { siteOrigin, type Policy, type PolicyRule } from '../../shared/permissions';
import type { Risk } from '../../shared/permissions';
import { RECORDS, storeOf, type Store, type StoreOrArea } from '../../shared/store';

export { PolicyRuleSchema, PolicySchema, type Policy, type PolicyRule } from '../../shared/permissions';

/** What a careful user would want before saying anything: read freely, ask before acting. */
export const DEFAULT_POLICY: Record<Risk, Policy> = { read: 'allow', interact: 'ask', navigate: 'ask', sensitive: 'ask' };

export const tierSubject = (risk: Risk) => `tier:${risk}`;

/** The user's rules, kept in storage: viewable, editable and revocable in the options page. */
export class PolicyStore {
  private rules: PolicyRule[] | undefined;
  private sensitive: string[] | undefined;

  private readonly store: Store;

  constructor(storage: StoreOrArea) {
    this.store = storeOf(storage);
  }

  async list(): Promise<PolicyRule[]> {
    this.rules ??= await this.store.read(RECORDS.policies);
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
    await this.store.set(RECORDS.policies, this.rules);
  }

  async remove(origin: string, subject: string): Promise<void> {
    this.rules = (await this.list()).filter((r) => !(r.origin === origin && r.subject === subject));
    await this.store.set(RECORDS.policies, this.rules);
  }

  async sensitiveSites(): Promise<string[]> {
    this.sensitive ??= await this.store.read(RECORDS.sensitiveSites);
    return this.sensitive;
  }

  async setSensitiveSites(origins: string[]): Promise<void> {
    const typed = origins.map((o) => o.trim()).filter(Boolean);
    this.sensitive = [...new Set(typed.map(siteOrigin).filter((o) => o !== '*'))];
    await this.store.set(RECORDS.sensitiveSites, this.sensitive);
  }
}
