/** The router's rule for images (none without vision, the latest few with it) and the providers' move of tool images. */
import { hoistToolImages, MAX_IMAGES_SENT, NOT_VISION_NOTE, prepareImages } from '../../../src/background/llm/images';
import type { LlmImage, LlmMessage } from '../../../src/background/llm/types';

const image = (n: number): LlmImage => ({ mimeType: 'image/png', data: `img${n}` });
const toolWith = (id: string, images: LlmImage[]): LlmMessage => ({ role: 'tool', content: `result ${id}`, toolCallId: id, name: 'shot', images });
const sent = (messages: LlmMessage[]) => messages.flatMap((m) => ('images' in m && m.images ? m.images.map((i) => i.data) : []));

test('a model without vision gets no image, and each one left out is named in a note', () => {
  const messages: LlmMessage[] = [{ role: 'user', content: 'look', images: [image(1)] }, toolWith('a', [image(2), image(3)])];
  const prepared = prepareImages(messages, false);
  expect(sent(prepared)).toEqual([]);
  expect(prepared[1]!.content).toBe(`result a\n${NOT_VISION_NOTE}\n${NOT_VISION_NOTE}`);
  // The input is not changed.
  expect(sent(messages)).toHaveLength(3);
});

test('a vision model gets the latest images only; older ones become a note', () => {
  const messages: LlmMessage[] = [toolWith('a', [image(1), image(2)]), toolWith('b', [image(3)]), toolWith('c', [image(4)])];
  const prepared = prepareImages(messages, true);
  expect(sent(prepared)).toEqual(['img2', 'img3', 'img4']);
  expect(sent(prepared)).toHaveLength(MAX_IMAGES_SENT);
  expect(prepared[0]!.content).toMatch(/^result a\n\[image omitted: older images are not sent again/);
  expect(prepared[2]).toBe(messages[2]);
});

test('tool images move to one user message after the step\'s results, in order', () => {
  const messages: LlmMessage[] = [
    { role: 'assistant', content: '', toolCalls: [{ id: 'a', name: 'shot', arguments: {} }, { id: 'b', name: 'shot', arguments: {} }] },
    toolWith('a', [image(1)]),
    toolWith('b', [image(2)]),
    { role: 'assistant', content: 'Seen.' },
  ];
  const wire = hoistToolImages(messages);
  expect(wire.map((m) => m.role)).toEqual(['assistant', 'tool', 'tool', 'user', 'assistant']);
  expect(wire.slice(1, 3).every((m) => !('images' in m))).toBe(true);
  expect(sent(wire)).toEqual(['img1', 'img2']);
  expect(wire[3]!.content).toMatch(/untrusted data/);
});
