/**
 * The constrained step's pure parts: the schema built from the tools (checked with the same
 * validator the scripted server enforces), the streaming reader in every chunking, its cost on a
 * 300 KB reply, and the history written back in the shape the model was asked for.
 */
import { toConstrainedMessages } from '../../../src/background/llm/constrained/messages';
import { isStrictCompatible, stepSchema } from '../../../src/background/llm/constrained/schema';
import { readStep, StepReader } from '../../../src/background/llm/constrained/step-reader';
import type { LlmMessage, ToolSpec } from '../../../src/background/llm/types';
import { checkAgainstSchema } from '../../support/json-schema';

const TOOLS: ToolSpec[] = [
  { name: 'fill', description: 'Type', parameters: { type: 'object', properties: { id: { type: 'integer', minimum: 1 }, text: { type: 'string', minLength: 1 }, submit: { type: 'boolean' } }, required: ['id', 'text'] } },
  { name: 'scroll', description: 'Scroll', parameters: { type: 'object', properties: { direction: { type: 'string', enum: ['up', 'down'] } } } },
];

describe('the step schema', () => {
  const schema = stepSchema(TOOLS);
  const valid = (value: unknown) => checkAgainstSchema(schema, JSON.stringify(value)).ok;

  test('takes a call of a listed tool with arguments per its schema, or an answer', () => {
    expect(valid({ tool: 'fill', arguments: { id: 2, text: 'x' } })).toBe(true);
    expect(valid({ tool: 'fill', arguments: { id: 2, text: 'x', submit: true } })).toBe(true);
    expect(valid({ tool: 'scroll', arguments: {} })).toBe(true);
    expect(valid({ answer: 'All done.' })).toBe(true);
  });

  test.each([
    ['an unknown tool', { tool: 'fly', arguments: {} }],
    ['a missing required argument', { tool: 'fill', arguments: { id: 2 } }],
    ['an argument of the wrong type', { tool: 'fill', arguments: { id: '2', text: 'x' } }],
    ['an argument below its minimum', { tool: 'fill', arguments: { id: 0, text: 'x' } }],
    ['an argument shorter than its minLength', { tool: 'fill', arguments: { id: 1, text: '' } }],
    ['a value outside the enum', { tool: 'scroll', arguments: { direction: 'left' } }],
    ['an argument the tool does not have', { tool: 'scroll', arguments: { speed: 3 } }],
    ['a stray key beside the call', { tool: 'scroll', arguments: {}, note: 'hi' }],
    ['a call and an answer at once', { tool: 'scroll', arguments: {}, answer: 'x' }],
    ['the arguments missing', { tool: 'scroll' }],
    ['an answer that is not text', { answer: 3 }],
  ])('refuses %s', (_what, value) => {
    expect(valid(value)).toBe(false);
  });

  test('keeps real bounds but not the safe-integer ones zod writes on every integer', () => {
    const tool: ToolSpec = { name: 'go', description: '', parameters: { type: 'object', properties: { id: { type: 'integer', exclusiveMinimum: 0, maximum: Number.MAX_SAFE_INTEGER }, n: { type: 'integer', minimum: Number.MIN_SAFE_INTEGER, maximum: 9 } } } };
    const [branch] = stepSchema([tool]).anyOf as { properties: { arguments: { properties: unknown } } }[];
    expect(branch!.properties.arguments.properties).toEqual({ id: { type: 'integer', exclusiveMinimum: 0 }, n: { type: 'integer', maximum: 9 } });
  });

  test('is never sent as strict: its root is an anyOf, which strict mode refuses', () => {
    expect(isStrictCompatible(schema)).toBe(false);
    const strictOk = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'], additionalProperties: false };
    expect(isStrictCompatible(strictOk)).toBe(true);
    expect(isStrictCompatible({ ...strictOk, required: [] })).toBe(false);
  });
});

describe('the step reader', () => {
  const answer = 'Line one\nTab\there "quoted" \\ back/slash, é, \u{1F600} and \u0001.';
  const reply = ` { "answer" : ${JSON.stringify(answer).replace('é', '\\u00e9').replace('\u{1F600}', '\\ud83d\\ude00')} } `;

  test('streams an answer exactly, split at every position (escapes and \\u sequences cut in two)', () => {
    for (let cut = 0; cut <= reply.length; cut++) {
      const reader = new StepReader();
      expect(reader.push(reply.slice(0, cut)) + reader.push(reply.slice(cut))).toBe(answer);
    }
    const reader = new StepReader();
    expect([...reply].map((ch) => reader.push(ch)).join('')).toBe(answer);
  });

  test('shows nothing of a call, even an "answer" key inside its arguments', () => {
    const call = JSON.stringify({ tool: 'fill', arguments: { id: 1, text: 'x', answer: 'not shown' } });
    const reader = new StepReader();
    expect([...call].map((ch) => reader.push(ch)).join('')).toBe('');
    expect(readStep(call)).toEqual({ kind: 'call', name: 'fill', arguments: { id: 1, text: 'x', answer: 'not shown' } });
  });

  test('reads the whole reply into a call, an answer, or what is wrong', () => {
    expect(readStep(reply)).toEqual({ kind: 'answer', text: answer });
    expect(readStep('{"tool": "scroll", "arguments": "down"}')).toMatchObject({ kind: 'call', name: 'scroll', arguments: {}, argumentsError: expect.any(String) });
    expect(readStep('{"answer": "cut')).toEqual({ kind: 'invalid', problem: 'The reply is not one complete JSON object.' });
    expect(readStep('<click id="3" />')).toMatchObject({ kind: 'invalid' });
    expect(readStep('{"name": "click"}')).toMatchObject({ kind: 'invalid', problem: expect.stringContaining('neither') });
  });

  test('a 300 KB reply costs about what its size says, in small chunks or one', () => {
    const big = JSON.stringify({ answer: 'ab\\"c\n'.repeat(50_000) });
    const timed = (chunk: number) => {
      const reader = new StepReader();
      const start = performance.now();
      let shown = 0;
      for (let i = 0; i < big.length; i += chunk) shown += reader.push(big.slice(i, i + chunk)).length;
      return { ms: performance.now() - start, shown };
    };
    timed(8); // warm-up
    const small = timed(8);
    const whole = timed(big.length);
    expect(small.shown).toBe(JSON.parse(big).answer.length);
    expect(whole.shown).toBe(small.shown);
    // Linear: chunking adds no re-scan (a quadratic reader would take minutes here).
    expect(small.ms).toBeLessThan(Math.max(200, whole.ms * 10));
  });
});

test('history: earlier calls come back as step objects, answers as answer objects, results as user turns', () => {
  const messages: LlmMessage[] = [
    { role: 'system', content: 'You are an agent.' },
    { role: 'user', content: 'Fill it' },
    { role: 'assistant', content: '', toolCalls: [{ id: 'a', name: 'fill', arguments: { id: 1, text: 'x' } }, { id: 'b', name: 'scroll', arguments: {} }] },
    { role: 'tool', toolCallId: 'a', name: 'fill', content: 'Filled.' },
    { role: 'tool', toolCallId: 'b', name: 'scroll', content: 'Scrolled.' },
    { role: 'assistant', content: 'All filled.' },
  ];
  const out = toConstrainedMessages(messages, 'CATALOGUE');
  expect(out).toEqual([
    { role: 'system', content: 'You are an agent.\n\nCATALOGUE' },
    { role: 'user', content: 'Fill it' },
    { role: 'assistant', content: '{"tool":"fill","arguments":{"id":1,"text":"x"}}\n{"tool":"scroll","arguments":{}}' },
    { role: 'user', content: 'Result of fill:\nFilled.\n\nResult of scroll:\nScrolled.' },
    { role: 'assistant', content: '{"answer":"All filled."}' },
  ]);
});
