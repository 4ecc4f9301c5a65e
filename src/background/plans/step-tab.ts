/**
 * Where a plan step works: an open tab by id, or a tab it opens in the background for an address
 * (its own, or a URL field an earlier step returned) in the window of the user's tab. It never
 * navigates or closes the user's own tabs; where the browser has tab groups, the tabs a plan opens
 * go into one group named after the plan.
 */
import { say, type Localized } from '../../shared/i18n';
import type { StepJob } from './step-job';
import { webAddress } from './web-address';

export interface StepTab {
  id: number;
  title: string;
  url: string;
}

/** The part of `browser.tabs` (and `browser.tabGroups`) a step's tab needs. */
export interface StepTabsApi {
  get(tabId: number): Promise<{ id?: number; title?: string; url?: string; status?: string; windowId?: number }>;
  create(props: { url: string; active: boolean; windowId?: number }): Promise<{ id?: number }>;
  /** Absent where the browser has no tab groups (Firefox ESR may lack them). */
  group?(options: { tabIds: number[]; groupId?: number; createProperties?: { windowId?: number } }): Promise<number>;
  updateGroup?(groupId: number, props: { title: string }): Promise<unknown>;
}

export type Resolved = { ok: true; tab: StepTab } | { ok: false; reason: Localized };

export class StepTabs {
  /** The tab group of each plan, once made. */
  private readonly groups = new Map<string, Promise<number | undefined>>();

  constructor(
    private readonly tabs: StepTabsApi,
    /** The window of the user's tab: where plan tabs open. */
    private readonly userWindow: () => Promise<number | undefined>,
  ) {}

  async resolve(job: StepJob): Promise<Resolved> {
    const where = job.step.tab;
    if (where.kind === 'tab') {
      const tab = await this.read(where.tabId);
      return tab ? { ok: true, tab } : { ok: false, reason: say('planTabGone') };
    }
    const address = where.kind === 'url' ? webAddress(where.url) : webAddress(job.inputs[where.stepId]?.[where.field]);
    if (!address) return { ok: false, reason: where.kind === 'url' ? say('planBadAddress') : say('planNoAddressFrom', where.stepId, where.field) };
    // A resumed or retried step goes on in the tab it opened before, if that is still there.
    if (job.previousTabId !== undefined && job.openedTabs.includes(job.previousTabId)) {
      const before = await this.read(job.previousTabId);
      if (before) return { ok: true, tab: before };
    }
    const windowId = await this.userWindow().catch(() => undefined);
    const created = await this.tabs.create({ url: address, active: false, ...(windowId !== undefined ? { windowId } : {}) });
    if (created.id === undefined) return { ok: false, reason: say('planTabNotOpened') };
    job.opened(created.id);
    await this.group(job, created.id, windowId);
    return { ok: true, tab: { id: created.id, title: '', url: address } };
  }

  /** The tab as it is now, or undefined when it is gone. */
  async read(tabId: number): Promise<StepTab | undefined> {
    const tab = await this.tabs.get(tabId).catch(() => undefined);
    return tab ? { id: tabId, title: tab.title ?? '', url: tab.url ?? '' } : undefined;
  }

  async loaded(tabId: number): Promise<boolean> {
    return (await this.tabs.get(tabId).catch(() => undefined))?.status === 'complete';
  }

  /** Puts a tab the plan opened into the plan's group; without tab groups, or if it fails, the tab just stays ungrouped. */
  private async group(job: StepJob, tabId: number, windowId: number | undefined): Promise<void> {
    const { group, updateGroup } = this.tabs;
    if (!group) return;
    const known = this.groups.get(job.planId);
    if (known) {
      const groupId = await known;
      if (groupId !== undefined) await group.call(this.tabs, { tabIds: [tabId], groupId }).catch(() => undefined);
      return;
    }
    const made = group
      .call(this.tabs, { tabIds: [tabId], ...(windowId !== undefined ? { createProperties: { windowId } } : {}) })
      .then(async (groupId) => {
        await updateGroup?.call(this.tabs, groupId, { title: job.planTitle.slice(0, 60) }).catch(() => undefined);
        return groupId;
      })
      .catch(() => undefined);
    this.groups.set(job.planId, made);
    await made;
  }
}
