import { toLlmHistory } from '../../../src/background/agent/history';
import { fenceToolResult } from '../../../src/background/agent/untrusted';
import type { ChatMessage } from '../../../src/shared/conversation';

const at = 1;

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
