import { ANSWER_RESERVE, contextWindowFor, estimateRequestTokens } from '../../../src/background/llm/context-budget';

test('the window holds the prompt and an answer, rounded to 2048, capped by the model', () => {
  expect(contextWindowFor(100, 131_072)).toBe(4096);
  expect(contextWindowFor(5000, 131_072)).toBe(Math.ceil((5000 + ANSWER_RESERVE) / 2048) * 2048);
  expect(contextWindowFor(7000, 8192)).toBe(8192);
});

test('a prompt larger than the model’s window is refused loudly, not cut silently', () => {
  expect(() => contextWindowFor(9000, 8192)).toThrow(/more than the model’s context window \(8192\)/);
});

test('tool schemas count towards the prompt', () => {
  const messages = [{ role: 'user' as const, content: 'hi' }];
  const tools = [{ name: 't', description: 'd'.repeat(400), parameters: {} }];
  expect(estimateRequestTokens(messages, tools)).toBeGreaterThan(estimateRequestTokens(messages) + 90);
});
