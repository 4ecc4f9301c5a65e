/**
 * Where the fixes from the twenty-second held-out round stop: an xLAM-style fine-tune's `<calls>` block of call objects,
 * one per line; FunctionGemma's bare `None`, and a null for an argument the tool does not declare.
 */
import { parseToolCalls } from '../../../src/background/llm/tool-protocol/parse';
import { expectNoCall, expectReadAs } from '../../support/stream-through';

const object = (properties: Record<string, unknown>) => ({ type: 'object', properties });
const TOOLS = [
  { name: 'is_power_of_two', parameters: object({ num: { type: 'integer' } }) },
  { name: 'create_calendar_event', parameters: object({ datetime: { type: 'string' }, title: { type: 'string' } }) },
  { name: 'send_email', parameters: object({ to: { type: 'string' }, subject: { type: 'string' }, body: { type: 'string' } }) },
];

describe("an xLAM-style fine-tune's <calls> block", () => {
  test('call objects one per line, in single quotes: the calls', () => {
    expectReadAs("<calls>{'name': 'is_power_of_two', 'arguments': {'num': 8}}\n{'name': 'is_power_of_two', 'arguments': {'num': 1233}}</calls>", TOOLS, [
      { name: 'is_power_of_two', arguments: { num: 8 } },
      { name: 'is_power_of_two', arguments: { num: 1233 } },
    ], '');
  });

  test('after the tool description the model echoed: the calls, the echo shown as it is no call', () => {
    const echo = "{'name': 'is_power_of_two', 'description': 'Checks a number.', 'parameters': {'num': {'type': 'int'}}}</tools>";
    const result = parseToolCalls(`${echo}\n\n<calls>{'name': 'is_power_of_two', 'arguments': {'num': 8}}</calls>`, TOOLS);
    expect(result.calls).toEqual([{ name: 'is_power_of_two', arguments: { num: 8 } }]);
    expect(result.text).toBe(echo);
  });

  test('named in a sentence: prose', () => {
    expectNoCall('The fine-tune wraps its calls in <calls>…</calls> tags, one per line.', TOOLS);
  });
});

describe("FunctionGemma's bare None", () => {
  test('for every parameter it knows but does not use: those arguments dropped', () => {
    expectReadAs('<start_function_call>call:create_calendar_event{body:None,datetime:2025-06-06 14:00:00,subject:None,title:<escape>Team Sync<escape>,to:None}<end_function_call><start_function_response>\n', TOOLS, [
      { name: 'create_calendar_event', arguments: { datetime: '2025-06-06 14:00:00', title: 'Team Sync' } },
    ], '');
  });

  test('for a parameter the tool declares: null, kept', () => {
    expect(parseToolCalls('<start_function_call>call:send_email{to:<escape>a@b.c<escape>,subject:None}<end_function_call>', TOOLS).calls).toEqual([
      { name: 'send_email', arguments: { to: 'a@b.c', subject: null } },
    ]);
  });
});
