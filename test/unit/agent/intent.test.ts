import { classifyByRules, classifyIntent, parseIntentReply } from '../../../src/background/intent';
import { LlmError } from '../../../src/background/llm/errors';

test.each([
  ['Summarize this page', 'summarize'],
  ['tl;dr please', 'summarize'],
  ['What are the key points?', 'summarize'],
  ['Click the login button', 'action'],
  ['please fill in the email field with a@b.co', 'action'],
  ['Can you add the blue one to the cart', 'action'],
  ['go to the pricing page', 'action'],
  ['Log in with my usual account', 'action'],
  ['Sign me in as ada@example.com', 'action'],
  ['log me out', 'action'],
  ['What does this article say about inflation?', 'question'],
  ['who wrote this', 'question'],
  ['Explain the second table', 'question'],
  ['hello!', 'chat'],
  ['thanks', 'chat'],
])('“%s” is %s without a model call', (text, kind) => {
  expect(classifyByRules(text, false)?.kind).toBe(kind);
});

test('a short follow-up is recognised only when there is a conversation to follow', () => {
  expect(classifyByRules('and the second one?', true)?.kind).toBe('follow_up');
  expect(classifyByRules('and the second one?', false)?.kind).not.toBe('follow_up');
});

test('an ambiguous message asks the model once, with a strict format', async () => {
  const asked: string[] = [];
  const intent = await classifyIntent('the blue sweater in medium', false, async (system, text) => {
    asked.push(system, text);
    return ' Action.';
  });
  expect(intent).toEqual({ kind: 'action', reason: 'decided by the model', by: 'model' });
  expect(asked[0]).toMatch(/exactly one word/);
});

test('an unusable model answer falls back to a question, which never acts', async () => {
  const intent = await classifyIntent('the blue sweater in medium', false, async () => 'I think the user maybe wants to shop');
  expect(intent.kind).toBe('question');
  const failed = await classifyIntent('the blue sweater in medium', false, async () => {
    throw new Error('down');
  });
  expect(failed.kind).toBe('question');
});

test('a failure the answer would meet too (bad key, unknown model, server down) is reported at once', async () => {
  for (const code of ['unauthorized', 'unknown_model', 'server_unreachable'] as const) {
    await expect(
      classifyIntent('the blue sweater in medium', false, async () => {
        throw new LlmError(code, `failed: ${code}`);
      }),
    ).rejects.toMatchObject({ code });
  }
  // A transient one is not: the message goes on as a question.
  const slow = await classifyIntent('the blue sweater in medium', false, async () => {
    throw new LlmError('timeout', 'slow');
  });
  expect(slow.kind).toBe('question');
});

test('reasoning before the one word is ignored', () => {
  expect(parseIntentReply('<think>they want a summary</think>\nsummarize')).toBe('summarize');
  expect(parseIntentReply('banana')).toBeUndefined();
});
