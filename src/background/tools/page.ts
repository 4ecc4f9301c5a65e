import { z } from 'zod';
import type { PageAction } from '../../shared/content-protocol';
import { say } from '../../shared/i18n';
import type { PageReader } from '../page/page-reader';
import { PageError, type TabAgent } from '../page/tab-agent';
import { actionSaid, problemSaid } from './action-words';
import { defineTool, previewOf, type ToolContext, type ToolReply } from './registry';
import { elementId, looseBoolean } from './schemas';

export interface PageToolDeps {
  /** `act` does an action only as the permission gate inspected it (`TabAgent.inspect`). */
  agent: Pick<TabAgent, 'request' | 'act'>;
  reader: PageReader;
  /** How long to let the page react before looking at it again after an action. */
  settleMs?: number;
}

const id = elementId;
const reason = z.string().optional().describe('Why you are doing this, in a few words, for the user.');

/** A page problem is a result the model can act on, not a crash of the task. */
export function pageFailure(error: unknown): ToolReply {
  if (error instanceof PageError) {
    const words = error.text ?? problemSaid(error.code);
    const content = `${error.message}${['not_found', 'detached', 'stale', 'changed'].includes(error.code) ? ' Call read_page to get fresh ids.' : ''}`;
    return { ok: false, content, preview: error.message, ...(words ? { previewText: words } : {}) };
  }
  return { ok: false, content: `The action failed: ${error instanceof Error ? error.message : String(error)}` };
}

export function tabOf(ctx: ToolContext): number {
  if (ctx.task.tabId === undefined) throw new PageError('no_tab', 'There is no page open to work on. Open one with open_tab or navigate.');
  return ctx.task.tabId;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Runs an action on exactly what the gate inspected for this call (`args` is the call's own
 * arguments object); for actions that can change the page, reports where it landed.
 */
export function performer(deps: PageToolDeps) {
  const settle = deps.settleMs ?? 400;
  return async (ctx: ToolContext, args: object, action: PageAction, lookAgain: boolean): Promise<ToolReply> => {
    try {
      const tabId = tabOf(ctx);
      const done = await deps.agent.act(tabId, args, action);
      const shown = { preview: done.message, ...(done.report ? { previewText: actionSaid(done.report) } : {}) };
      if (!lookAgain) return { ok: true, content: done.message, ...shown };
      await sleep(settle);
      const after = await deps.reader.read(tabId, { maxTokens: 1200 }, ctx.conversationId).catch(() => undefined);
      const view = after ? `\n\nThe page now (${after.snapshot.url}):\n${after.rendered}` : '';
      return { ok: true, content: `${done.message}${view}`, ...shown };
    } catch (error) {
      return pageFailure(error);
    }
  };
}

export function createPageTools(deps: PageToolDeps) {
  const perform = performer(deps);

  return [
    defineTool({
      name: 'read_page',
      brief: 'Read the page: its text and the elements with their [id]s.',
      description: 'Read the current page: its text and the interactive elements with their [id]s. Use offset to read further when the text was cut, or region (a CSS selector) to read one part.',
      input: z.object({
        offset: z.coerce.number().int().min(0).optional().describe('Continue the text from this character offset (given when the text was cut).'),
        region: z.string().optional().describe('A CSS selector of the part of the page to read.'),
      }),
      risk: 'read',
      timeoutMs: 15_000,
      run: async ({ offset, region }, ctx) => {
        try {
          const { rendered, snapshot } = await deps.reader.read(tabOf(ctx), { offset, region, maxTokens: 3000 }, ctx.conversationId);
          return { ok: true, content: rendered, ...previewOf(say('previewRead', snapshot.title || snapshot.url)) };
        } catch (error) {
          return pageFailure(error);
        }
      },
    }),
    defineTool({
      name: 'click',
      brief: 'Click the element with this [id].',
      description: 'Click an element (link, button, checkbox, menu item…) by its [id].',
      input: z.object({ id, reason }),
      risk: 'interact',
      timeoutMs: 15_000,
      run: (args, ctx) => perform(ctx, args, { action: 'click', id: args.id }, true),
    }),
    defineTool({
      name: 'fill',
      brief: 'Type text into the field with this [id].',
      description: 'Type text into a text field, text area or editable element by its [id], replacing what it holds.',
      input: z.object({ id, text: z.string().describe('The text to type.'), reason }),
      risk: 'interact',
      timeoutMs: 10_000,
      run: (args, ctx) => perform(ctx, args, { action: 'fill', id: args.id, text: args.text }, false),
    }),
    defineTool({
      name: 'select_option',
      brief: 'Choose an option of the drop-down with this [id].',
      description: 'Choose an option of a drop-down list (<select>) by its [id], giving the option’s visible text or value.',
      input: z.object({ id, option: z.string().describe('The option’s text or value.'), reason }),
      risk: 'interact',
      timeoutMs: 10_000,
      run: (args, ctx) => perform(ctx, args, { action: 'select_option', id: args.id, option: args.option }, false),
    }),
    defineTool({
      name: 'set_checked',
      fullOnly: true,
      description: 'Check or uncheck a checkbox, radio button or switch by its [id].',
      input: z.object({ id, checked: looseBoolean.describe('true to check, false to uncheck.'), reason }),
      risk: 'interact',
      timeoutMs: 10_000,
      run: (args, ctx) => perform(ctx, args, { action: 'set_checked', id: args.id, checked: args.checked }, false),
    }),
    defineTool({
      name: 'press_key',
      fullOnly: true,
      description: 'Press a key (Enter, Escape, Tab, ArrowDown, a letter…) in the element with [id], or in the focused element if no id is given.',
      input: z.object({ key: z.string().describe('The key name, e.g. Enter.'), id: id.optional(), reason }),
      risk: 'interact',
      timeoutMs: 15_000,
      repeatable: true,
      run: (args, ctx) => perform(ctx, args, { action: 'press_key', key: args.key, id: args.id }, true),
    }),
    defineTool({
      name: 'scroll',
      brief: 'Scroll the page (default: down).',
      description: 'Scroll the page up, down, to the top or bottom, or bring the element with [id] into view. Use it to load more items on endless lists.',
      input: z.object({ direction: z.enum(['up', 'down', 'top', 'bottom']).optional().describe('Default: down.'), id: id.optional() }),
      risk: 'interact',
      timeoutMs: 10_000,
      repeatable: true,
      run: (args, ctx) => perform(ctx, args, { action: 'scroll', direction: args.direction, id: args.id }, true),
    }),
    defineTool({
      name: 'hover',
      fullOnly: true,
      description: 'Move the mouse over an element by its [id] (opens hover menus and tooltips).',
      input: z.object({ id }),
      risk: 'interact',
      timeoutMs: 10_000,
      run: (args, ctx) => perform(ctx, args, { action: 'hover', id: args.id }, true),
    }),
    defineTool({
      name: 'submit_form',
      fullOnly: true,
      description: 'Submit the form that contains the element with [id] (a field or the form’s button).',
      input: z.object({ id, reason }),
      risk: 'sensitive',
      timeoutMs: 20_000,
      run: (args, ctx) => perform(ctx, args, { action: 'submit', id: args.id }, true),
    }),
    defineTool({
      name: 'wait_for',
      fullOnly: true,
      description: 'Wait until some text or a CSS selector appears on the page (after an action that loads content).',
      input: z.object({
        text: z.string().optional(),
        selector: z.string().optional(),
        timeout_s: z.coerce.number().min(1).max(30).optional().describe('Seconds to wait at most (default 10).'),
      }),
      risk: 'read',
      timeoutMs: 32_000,
      run: async ({ text, selector, timeout_s }, ctx) => {
        if (!text && !selector) return { ok: false, content: 'Give the text or the selector to wait for.' };
        try {
          const done = await deps.agent.request(tabOf(ctx), { type: 'page/wait', text, selector, timeoutMs: (timeout_s ?? 10) * 1000 });
          return { ok: true, content: done.message };
        } catch (error) {
          return pageFailure(error);
        }
      },
    }),
    defineTool({
      name: 'recall_page',
      fullOnly: true,
      description: 'Read again a page you read earlier in this conversation, by its URL, even if the tab has moved on.',
      input: z.object({ url: z.string() }),
      risk: 'read',
      timeoutMs: 2_000,
      run: async ({ url }, ctx) => {
        const page = deps.reader.recall(url, ctx.conversationId);
        if (!page) return { ok: false, content: `No page read earlier in this conversation has that URL. Pages read so far: ${deps.reader.knownUrls(ctx.conversationId).join(', ') || 'none'}.` };
        return { ok: true, content: page.rendered, ...previewOf(say('previewRecalled', page.snapshot.title || url)) };
      },
    }),
  ];
}
