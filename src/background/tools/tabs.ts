import { z } from 'zod';
import { say, type Localized } from '../../shared/i18n';
import { english } from '../english';
import type { PageReader } from '../page/page-reader';
import { restrictionOf } from '../page/restricted';
import { defineTool, previewOf, type ToolContext, type ToolReply } from './registry';
import { webUrl } from './schemas';

/** The tab APIs the tab tools use; `browser.tabs` provides them. */
export interface TabControl {
  query(filter: { windowId?: number }): Promise<{ id?: number; url?: string; title?: string; active?: boolean; windowId?: number }[]>;
  get(tabId: number): Promise<{ id?: number; url?: string; title?: string; status?: string; windowId?: number }>;
  create(props: { url: string; active?: boolean; windowId?: number }): Promise<{ id?: number }>;
  update(tabId: number, props: { url?: string; active?: boolean }): Promise<unknown>;
  remove(tabId: number): Promise<void>;
  reload(tabId: number): Promise<void>;
  goBack(tabId: number): Promise<void>;
  goForward(tabId: number): Promise<void>;
}

export interface TabToolDeps {
  tabs: TabControl;
  reader: PageReader;
  /** Resolves when the tab has finished loading (or the timeout passes). */
  waitForLoad(tabId: number, timeoutMs: number): Promise<void>;
}

const NAV_TIMEOUT = 30_000;


export function createTabTools(deps: TabToolDeps) {
  /** After a navigation: where the tab is now, and its page, so the model need not ask. */
  const arrived = async (tabId: number, said: Localized, ctx: ToolContext): Promise<ToolReply> => {
    await deps.waitForLoad(tabId, NAV_TIMEOUT);
    deps.reader.invalidate(tabId);
    const tab = await deps.tabs.get(tabId);
    const what = english(said);
    const restriction = restrictionOf(tab.url);
    if (restriction) return { ok: true, content: `${what} Now on ${tab.url}. ${restriction}`, ...previewOf(said) };
    const page = await deps.reader.read(tabId, { maxTokens: 1500 }, ctx.conversationId).catch(() => undefined);
    // The timeline line in the user's language: what happened (the English one adds the address).
    return { ok: true, content: `${what} Now on ${tab.url} — ${tab.title ?? ''}${page ? `\n\n${page.rendered}` : ''}`, preview: `${what} ${tab.url}`, previewText: said };
  };

  const requireTab = (ctx: ToolContext): number | ToolReply =>
    ctx.task.tabId ?? { ok: false, content: 'There is no tab to work in. Open one with open_tab.' };

  const guarded = async (run: () => Promise<ToolReply>): Promise<ToolReply> => {
    try {
      return await run();
    } catch (error) {
      return { ok: false, content: `That did not work: ${error instanceof Error ? error.message : String(error)}` };
    }
  };

  return [
    defineTool({
      name: 'list_tabs',
      fullOnly: true,
      description: 'List the open tabs of this window with their tab_id, title and URL; the current one is marked.',
      input: z.object({}),
      risk: 'read',
      timeoutMs: 5_000,
      run: (_args, ctx) =>
        guarded(async () => {
          const current = ctx.task.tabId === undefined ? undefined : await deps.tabs.get(ctx.task.tabId).catch(() => undefined);
          const tabs = await deps.tabs.query(current?.windowId !== undefined ? { windowId: current.windowId } : {});
          const lines = tabs.map((t) => `${t.id === ctx.task.tabId ? '* ' : '  '}tab_id=${t.id} ${JSON.stringify(t.title ?? '')} ${t.url ?? ''}`);
          return { ok: true, content: lines.join('\n'), ...previewOf(say('previewTabCount', tabs.length)) };
        }),
    }),
    defineTool({
      name: 'navigate',
      brief: 'Load a URL in this tab.',
      description: 'Load a URL in the current tab.',
      input: z.object({ url: webUrl, reason: z.string().optional() }),
      risk: 'navigate',
      timeoutMs: NAV_TIMEOUT + 5_000,
      run: ({ url }, ctx) =>
        guarded(async () => {
          const tabId = requireTab(ctx);
          if (typeof tabId !== 'number') return tabId;
          await deps.tabs.update(tabId, { url });
          return arrived(tabId, say('previewLoaded', url), ctx);
        }),
    }),
    defineTool({
      name: 'open_tab',
      fullOnly: true,
      description: 'Open a URL in a new tab and continue working there.',
      input: z.object({ url: webUrl, reason: z.string().optional() }),
      risk: 'navigate',
      timeoutMs: NAV_TIMEOUT + 5_000,
      run: ({ url }, ctx) =>
        guarded(async () => {
          const current = ctx.task.tabId === undefined ? undefined : await deps.tabs.get(ctx.task.tabId).catch(() => undefined);
          const tab = await deps.tabs.create({ url, active: true, ...(current?.windowId !== undefined ? { windowId: current.windowId } : {}) });
          if (tab.id === undefined) return { ok: false, content: 'The tab could not be opened.' };
          ctx.task.openedTabs.add(tab.id);
          if (ctx.task.tabId !== undefined) (ctx.task.openedFrom ??= new Map()).set(tab.id, ctx.task.tabId);
          ctx.task.tabId = tab.id;
          return arrived(tab.id, say('previewOpenedTab', tab.id), ctx);
        }),
    }),
    defineTool({
      name: 'switch_tab',
      fullOnly: true,
      description: 'Switch to another open tab (tab_id from list_tabs) and continue working there.',
      input: z.object({ tab_id: z.coerce.number().int() }),
      risk: 'navigate',
      timeoutMs: 10_000,
      run: ({ tab_id }, ctx) =>
        guarded(async () => {
          await deps.tabs.update(tab_id, { active: true });
          ctx.task.tabId = tab_id;
          return arrived(tab_id, say('previewSwitchedTab', tab_id), ctx);
        }),
    }),
    defineTool({
      name: 'close_tab',
      fullOnly: true,
      description: 'Close a tab that you opened during this task (tab_id).',
      input: z.object({ tab_id: z.coerce.number().int() }),
      risk: 'navigate',
      timeoutMs: 5_000,
      run: ({ tab_id }, ctx) =>
        guarded(async () => {
          if (!ctx.task.openedTabs.has(tab_id)) return { ok: false, content: 'You may only close tabs you opened during this task.' };
          await deps.tabs.remove(tab_id);
          ctx.task.openedTabs.delete(tab_id);
          if (ctx.task.tabId !== tab_id) return { ok: true, content: `Closed tab_id=${tab_id}.` };
          // Closing the tab it worked in: go back to the tab it came from, if that is still open.
          const back = ctx.task.openedFrom?.get(tab_id);
          const previous = back === undefined ? undefined : await deps.tabs.get(back).catch(() => undefined);
          if (back === undefined || !previous) {
            ctx.task.tabId = undefined;
            return { ok: true, content: `Closed tab_id=${tab_id}. Use list_tabs and switch_tab to choose where to continue.` };
          }
          await deps.tabs.update(back, { active: true });
          ctx.task.tabId = back;
          return { ok: true, content: `Closed tab_id=${tab_id}; back on tab_id=${back} ${JSON.stringify(previous.title ?? '')} ${previous.url ?? ''}.` };
        }),
    }),
    defineTool({
      name: 'go_back',
      fullOnly: true,
      description: 'Go back to the previous page in the current tab.',
      input: z.object({}),
      risk: 'navigate',
      timeoutMs: NAV_TIMEOUT + 5_000,
      run: (_args, ctx) =>
        guarded(async () => {
          const tabId = requireTab(ctx);
          if (typeof tabId !== 'number') return tabId;
          await deps.tabs.goBack(tabId);
          return arrived(tabId, say('previewWentBack'), ctx);
        }),
    }),
    defineTool({
      name: 'go_forward',
      fullOnly: true,
      description: 'Go forward to the next page in the current tab’s history.',
      input: z.object({}),
      risk: 'navigate',
      timeoutMs: NAV_TIMEOUT + 5_000,
      run: (_args, ctx) =>
        guarded(async () => {
          const tabId = requireTab(ctx);
          if (typeof tabId !== 'number') return tabId;
          await deps.tabs.goForward(tabId);
          return arrived(tabId, say('previewWentForward'), ctx);
        }),
    }),
    defineTool({
      name: 'reload',
      fullOnly: true,
      description: 'Reload the current page.',
      input: z.object({}),
      risk: 'navigate',
      timeoutMs: NAV_TIMEOUT + 5_000,
      run: (_args, ctx) =>
        guarded(async () => {
          const tabId = requireTab(ctx);
          if (typeof tabId !== 'number') return tabId;
          await deps.tabs.reload(tabId);
          return arrived(tabId, say('previewReloaded'), ctx);
        }),
    }),
  ];
}
