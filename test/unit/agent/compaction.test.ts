import { fitToBudget } from '../../../src/background/agent/compaction';
import { boundParts, renderForModel } from '../../../src/background/agent/parts';
import { estimateRequestTokens } from '../../../src/background/llm/context-budget';
import type { LlmMessage } from '../../../src/background/llm/types';

const big = (n: number) => 'x'.repeat(n);

test('a long tool result is cut and says so', () => {
  const truncate = (text: string, budget: number) => renderForModel(boundParts([{ type: 'text', text }], budget)).text;
  const cut = truncate(big(10_000), 1000);
  expect(cut.length).toBeLessThan(1200);
  expect(cut).toMatch(/9000 more characters cut/);
  expect(truncate('short', 1000)).toBe('short');
});

test('older tool results shrink first, the latest stay whole', () => {
  const messages: LlmMessage[] = [{ role: 'system', content: 'sys' }, { role: 'user', content: 'task' }];
  for (let i = 0; i < 4; i++) {
    messages.push({ role: 'assistant', content: '', toolCalls: [{ id: `c${i}`, name: 'read_page', arguments: {} }] });
    messages.push({ role: 'tool', content: big(4000), toolCallId: `c${i}`, name: 'read_page' });
  }
  const fitted = fitToBudget(messages, 2600);
  expect(estimateRequestTokens(fitted)).toBeLessThanOrEqual(2600);
  const results = fitted.filter((m) => m.role === 'tool').map((m) => m.content.length);
  expect(results.slice(-2)).toEqual([4000, 4000]);
  expect(results[0]).toBeLessThan(100);
  expect(messages[3]!.content.length).toBe(4000); // the input is untouched
});

test('when that is not enough the oldest turns go, never the system prompt or the current request', () => {
  const messages: LlmMessage[] = [{ role: 'system', content: 'sys' }];
  for (let i = 0; i < 20; i++) messages.push({ role: 'user', content: `q${i} ${big(800)}` }, { role: 'assistant', content: big(800) });
  messages.push({ role: 'user', content: 'the current request' });
  const fitted = fitToBudget(messages, 1500);
  expect(fitted[0]!.role).toBe('system');
  expect(fitted[0]!.content).toMatch(/omitted/);
  expect(fitted.at(-1)!.content).toBe('the current request');
  expect(estimateRequestTokens(fitted)).toBeLessThanOrEqual(1500);
  expect(fitted[1]!.role).not.toBe('tool');
});
