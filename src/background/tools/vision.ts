/**
 * The vision tools, offered only to models that take images (`offeredTools`): `look` sends a
 * screenshot of the working tab with numbered marks and their legend; `click_at`, `type_at` and
 * `hover_at` act on a mark or on a point of that screenshot. A point's element is found by the
 * page agent when the permission gate inspects the call, and judged like an element by id; the
 * action then runs on that element alone.
 */
import { z } from 'zod';
import { say } from '../../shared/i18n';
import type { PageAction } from '../../shared/content-protocol';
import { PageError } from '../page/tab-agent';
import { MAX_IMAGE_BYTES } from '../agent/parts';
import { captureWithMarks, type CaptureDeps } from '../vision/capture';
import { legendOf } from '../vision/marks-layout';
import { pageFailure, performer, tabOf, type PageToolDeps } from './page';
import { defineTool, previewOf, type ToolContext, type ToolReply } from './registry';
import { elementId } from './schemas';

export interface VisionToolDeps extends PageToolDeps {
  agent: PageToolDeps['agent'] & CaptureDeps['agent'] & { pointed(args: object): { id: number; at?: { x: number; y: number } } | undefined };
  tabs: CaptureDeps['tabs'];
}

/** The tools that need a model that reads images. */
export const VISION_TOOLS = new Set(['look', 'click_at', 'type_at', 'hover_at']);

const reason = z.string().optional().describe('Why you are doing this, in a few words, for the user.');
const target = {
  mark: elementId.optional().describe('The number of a mark in the latest screenshot.'),
  x: z.coerce.number().optional().describe('Or: the point’s x in the latest screenshot, in its pixels from the left.'),
  y: z.coerce.number().optional().describe('And its y, in pixels from the top.'),
};
const oneTarget = (args: { mark?: number; x?: number; y?: number }) => (args.mark !== undefined) !== (args.x !== undefined && args.y !== undefined);
const ONE_TARGET = { message: 'give either mark, or both x and y (not both ways)' };

const HOW_TO_ACT =
  'Each mark is a numbered box on an interactive element; its number is the element’s id. Act with click_at, type_at or hover_at and mark=<number>, or, for what has no mark (a drawing, a canvas), with x and y in this screenshot’s pixels from its top-left corner.';

export function createVisionTools(deps: VisionToolDeps) {
  const perform = performer(deps);
  /** The action on what the gate found for this call: a mark's element, or the element at the point. */
  const atTarget = (ctx: ToolContext, args: object, make: (id: number, at?: { x: number; y: number }) => PageAction, lookAgain: boolean): Promise<ToolReply> => {
    const found = deps.agent.pointed(args);
    if (!found) return Promise.resolve(pageFailure(new PageError('not_checked', 'This action was not checked by the permission engine, so it was not done.')));
    return perform(ctx, args, make(found.id, found.at), lookAgain);
  };

  return [
    defineTool({
      name: 'look',
      description: 'Take a screenshot of the visible part of the page, with numbered marks on its interactive elements and their list. Use it when the page text does not show what you need (drawings, canvas, images, unnamed buttons) or actions keep failing.',
      brief: 'Screenshot of the page with numbered marks, when its text is not enough.',
      input: z.object({ reason }),
      risk: 'read',
      timeoutMs: 15_000,
      run: async (_args, ctx) => {
        try {
          const { image, look } = await captureWithMarks(tabOf(ctx), deps);
          if (image.bytes > MAX_IMAGE_BYTES) return { ok: false, content: `The screenshot is ${Math.ceil(image.bytes / 1024)} KB, more than an image may have. Work from read_page instead.` };
          const legend = look.marks.length ? `Marks:\n${legendOf(look.marks)}` : 'No marks: nothing on this part of the page is an element FoxAgent can name. Point at what you see with x and y.';
          return {
            ok: true,
            parts: [
              { type: 'text', text: `Screenshot of the visible part of the page, ${image.width}×${image.height} pixels. ${HOW_TO_ACT}` },
              { type: 'image', mimeType: 'image/jpeg', data: image.data, width: image.width, height: image.height, alt: `Screenshot with ${look.marks.length} marks` },
              { type: 'text', text: legend },
            ],
            ...previewOf(say('previewLooked', image.width, image.height, look.marks.length)),
          };
        } catch (error) {
          return pageFailure(error);
        }
      },
    }),
    defineTool({
      name: 'click_at',
      description: 'Click a mark of the latest screenshot, or a point in it (x, y in its pixels).',
      input: z.object({ ...target, reason }).refine(oneTarget, ONE_TARGET),
      risk: 'interact',
      timeoutMs: 15_000,
      run: (args, ctx) => atTarget(ctx, args, (id, at) => ({ action: 'click', id, ...(at ? { at } : {}) }), true),
    }),
    defineTool({
      name: 'type_at',
      fullOnly: true,
      description: 'Type text into the text field at a mark of the latest screenshot, or at a point in it (x, y in its pixels), replacing what it holds.',
      input: z.object({ ...target, text: z.string().describe('The text to type.'), reason }).refine(oneTarget, ONE_TARGET),
      risk: 'interact',
      timeoutMs: 10_000,
      run: (args, ctx) => atTarget(ctx, args, (id) => ({ action: 'fill', id, text: args.text }), false),
    }),
    defineTool({
      name: 'hover_at',
      fullOnly: true,
      description: 'Move the mouse over a mark of the latest screenshot, or a point in it (x, y in its pixels).',
      input: z.object({ ...target }).refine(oneTarget, ONE_TARGET),
      risk: 'interact',
      timeoutMs: 10_000,
      run: (args, ctx) => atTarget(ctx, args, (id, at) => ({ action: 'hover', id, ...(at ? { at } : {}) }), true),
    }),
  ];
}
