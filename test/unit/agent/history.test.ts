import { toLlmHistory } from '../../../src/background/agent/history';
import { fenceToolResult } from '../../../src/background/agent/untrusted';
import { ConversationSchema, forgetOlderImages, MAX_KEPT_IMAGES, type ChatMessage } from '../../../src/shared/conversation';
import { PNG_BASE64 } from '../../support/images';

const at = 1;
const user = (content: string): ChatMessage => ({ id: `u${content}`, role: 'user', content, createdAt: at });

test('answers, calls and results come back in order, failed answers are left out', () => {
  const messages: ChatMessage[] = [
    { id: '1', role: 'user', content: 'Fill the form', createdAt: at },
    { id: '2', role: 'assistant', content: '', createdAt: at, status: 'error', error: { code: 'x', message: 'down', retryable: true } },
    { id: '3', role: 'assistant', content: 'On it', createdAt: at, status: 'complete', toolCalls: [{ id: 'c1', name: 'fill', arguments: { id: 2, text: 'a' } }] },
    { id: '4', role: 'tool', toolCallId: 'c1', name: 'fill', arguments: { id: 2, text: 'a' }, status: 'done', content: 'Typed', createdAt: at },
  ];
  expect(toLlmHistory(messages)).toEqual([
    { role: 'user', content: 'Fill the form' },
    { role: 'assistant', content: 'On it', toolCalls: [{ id: 'c1', name: 'fill', arguments: { id: 2, text: 'a' } }] },
    // The model reads the result as fenced, untrusted data.
    { role: 'tool', content: fenceToolResult('fill', 'Typed'), toolCallId: 'c1', name: 'fill' },
  ]);
});

test('a call left without a result (browser closed mid-task) gets one, as chat APIs require', () => {
  const messages: ChatMessage[] = [
    { id: '1', role: 'user', content: 'Click it', createdAt: at },
    { id: '2', role: 'assistant', content: '', createdAt: at, status: 'complete', toolCalls: [{ id: 'c1', name: 'click', arguments: { id: 1 } }] },
    { id: '3', role: 'user', content: 'Hello?', createdAt: at },
  ];
  const history = toLlmHistory(messages);
  expect(history[2]).toEqual({ role: 'tool', content: 'The call was interrupted.', toolCallId: 'c1', name: 'click' });
  expect(history[3]).toEqual({ role: 'user', content: 'Hello?' });
});

describe('results with images', () => {
  const shot = (id: string, data: string | undefined): ChatMessage => ({
    id: `t${id}`, role: 'tool', toolCallId: id, name: 'screenshot', arguments: {}, status: 'done', createdAt: at, content: '[image 1: PNG, 1 KB]',
    parts: [{ type: 'text', text: `shot ${id}` }, { type: 'image', mimeType: 'image/png', bytes: 70, ...(data ? { data } : {}) }],
  });
  const call = (id: string): ChatMessage => ({ id: `a${id}`, role: 'assistant', content: '', createdAt: at, status: 'complete', toolCalls: [{ id, name: 'screenshot', arguments: {} }] });

  test('a stored result with parts is read from them: fenced text, and its image attached', () => {
    const history = toLlmHistory([user('Look'), call('c1'), shot('c1', PNG_BASE64)]);
    expect(history[2]).toEqual({ role: 'tool', toolCallId: 'c1', name: 'screenshot', content: fenceToolResult('screenshot', 'shot c1\n[image 1: PNG, 1 KB]'), images: [{ mimeType: 'image/png', data: PNG_BASE64 }] });
  });

  test('an image whose bytes were not kept is named, and nothing is attached', () => {
    const history = toLlmHistory([user('Look'), call('c1'), shot('c1', undefined)]);
    expect(history[2]).toEqual({ role: 'tool', toolCallId: 'c1', name: 'screenshot', content: fenceToolResult('screenshot', 'shot c1\n[image 1: PNG, 1 KB] (no longer kept)') });
  });

  test('a conversation keeps the bytes of its newest images only', () => {
    const messages = ['c1', 'c2', 'c3', 'c4', 'c5'].flatMap((id) => [call(id), shot(id, PNG_BASE64)]);
    forgetOlderImages(messages);
    const kept = messages.flatMap((m) => (m.role === 'tool' ? m.parts!.filter((p) => p.type === 'image').map((p) => 'data' in p && p.data !== undefined) : []));
    expect(kept).toEqual([false, false, true, true, true]);
    expect(kept.filter(Boolean)).toHaveLength(MAX_KEPT_IMAGES);
  });

  test('an old conversation whose results are plain text still loads and replays; a new one with parts round-trips', () => {
    const old = { id: 'c', title: 't', createdAt: 1, updatedAt: 1, messages: [{ id: '1', role: 'user', content: 'Fill', createdAt: 1 }, { id: '2', role: 'assistant', content: '', createdAt: 1, status: 'complete', toolCalls: [{ id: 'c1', name: 'fill', arguments: {} }] }, { id: '3', role: 'tool', toolCallId: 'c1', name: 'fill', arguments: {}, status: 'done', content: 'Typed', createdAt: 1 }] };
    const parsed = ConversationSchema.parse(JSON.parse(JSON.stringify(old)));
    expect(toLlmHistory(parsed.messages)[2]).toEqual({ role: 'tool', content: fenceToolResult('fill', 'Typed'), toolCallId: 'c1', name: 'fill' });
    const fresh = { ...old, messages: [user('Look'), call('c1'), shot('c1', PNG_BASE64)] };
    expect(ConversationSchema.parse(JSON.parse(JSON.stringify(fresh)))).toEqual(fresh);
    // A stored part of a type the sidebar must not render is refused, not loaded.
    const svg = { ...fresh, messages: [user('Look'), call('c1'), { ...shot('c1', PNG_BASE64), parts: [{ type: 'image', mimeType: 'image/svg+xml', data: 'PHN2Zz4=', bytes: 5 }] }] };
    expect(ConversationSchema.safeParse(svg).success).toBe(false);
  });
});
