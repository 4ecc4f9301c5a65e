/** Requests that span tabs are plans by rule; single-page questions and actions stay what they were. */
import { classifyByRules } from '../../../src/background/intent';

test.each([
  'Compare the price and delivery time of this kettle on these three shops',
  'compare prices across these 4 sites',
  'Open the first five results and summarise each in one line',
  'open the top 3 links and tell me what each costs',
  'please open each result and collect its rating',
  'For each open tab about solar panels, collect the title, author and date into a table',
  'for each of these three shops find the delivery time',
  'Copy the shipping address from the order tab into the form on this tab',
  'take the tracking number from my email tab to the form',
  'In all my open tabs, find the cheapest flight',
  'collect the headline from all of my open tabs',
])('“%s” is a plan', (text) => {
  expect(classifyByRules(text, false)).toMatchObject({ kind: 'plan', by: 'rules' });
});

test.each([
  ['Which of these two tabs is cheaper?', 'question'],
  ['Compare these two tabs', 'question'],
  ['compare the two plans on this page', 'question'],
  ['What is the price on this site?', 'question'],
  ['summarise all my open tabs', 'summarize'],
  ['Summarize this page', 'summarize'],
  ['open the first result', 'action'],
  ['Open the settings tab', 'action'],
  ['copy the address into the form', undefined],
  ['fill in the form on this tab', 'action'],
  ['click the first link and then summarise it', 'summarize'],
  ['for each item in the cart, tell me the price', undefined],
  ['Go to the next page', 'action'],
])('“%s” is not a plan (%s, as before plans)', (text, kind) => {
  expect(classifyByRules(text, false)?.kind).toBe(kind);
  expect(classifyByRules(text, true)?.kind).not.toBe('plan');
});

test('the rules read a bounded head of a long message, in bounded time', () => {
  const long = `Compare ${'the price of this and '.repeat(20_000)} on these three shops`;
  const started = performance.now();
  expect(classifyByRules(long, false)?.kind).not.toBe('plan');
  expect(classifyByRules(`copy ${'from the a tab '.repeat(20_000)}`, false)?.kind).not.toBe('plan');
  // The worst the copy rule can meet: a head full of "copy" and "from … tab" with no target.
  expect(classifyByRules('copy from the x tab '.repeat(40), false)?.kind).not.toBe('plan');
  expect(classifyByRules('compare on the '.repeat(60), false)?.kind).not.toBe('plan');
  expect(performance.now() - started).toBeLessThan(200);
});
