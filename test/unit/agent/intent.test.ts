import { classifyByRules, routeOfReply } from '../../../src/background/intent';

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

test('the start of a reply says whether the model chose to act: the marker alone, as it streams', () => {
  // Not yet decided while the start could still be the marker.
  for (const start of ['', '  ', 'A', 'AC', 'ACT', '**ACT', 'ACT.']) expect(routeOfReply(start, false)).toBeUndefined();
  for (const whole of ['ACT', ' ACT.', '**ACT**', 'act', '`ACT`\n']) expect(routeOfReply(whole, true)).toBe('act');
  // Anything else is an answer, decided from its first letters.
  for (const start of ['The page', 'Actually, yes', 'Action items:', 'ACT 2 of the play', 'I', '1.']) expect(routeOfReply(start, false) ?? routeOfReply(start, true)).toBe('answer');
  expect(routeOfReply('AC', true)).toBe('answer');
  expect(routeOfReply('', true)).toBe('answer');
  // It looks at the start only: a 300 KB reply is decided at once.
  expect(routeOfReply(`Yes. ${'x'.repeat(300_000)}`, false)).toBe('answer');
});
