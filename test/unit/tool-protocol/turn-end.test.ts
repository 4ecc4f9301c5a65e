/**
 * End-of-turn tokens a server left after the reply (`…)<end_of_turn>`, `…</tool_call><|im_end|>`): they mean only
 * that the turn ended, as the end of the text does. Every real output in the corpus, with each family's token after
 * it, gives the same calls, and the stream filter shows what it shows without the token, in every chunking. A `</s>`
 * that closes a strikethrough stays.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseToolCalls } from '../../../src/background/llm/tool-protocol/parse';
import { streamThrough } from '../../support/stream-through';

interface Case {
  name: string;
  output: string;
  calls: { name: string; arguments: Record<string, unknown> }[];
  tools?: unknown[];
}

const DIR = path.resolve(__dirname, '../../fixtures/tool-calls');
const cases = readdirSync(DIR)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .flatMap((f) => {
    const family = JSON.parse(readFileSync(path.join(DIR, f), 'utf8')) as { family: string; tools: unknown[]; cases: Case[] };
    return family.cases.map((c) => ({ ...c, id: `${family.family}: ${c.name}`, tools: (c.tools ?? family.tools) as Parameters<typeof parseToolCalls>[1] }));
  });
const positives = cases.filter((c) => c.calls.length > 0);

/** Each family's end of turn or of sequence, as servers that keep special tokens leave it. */
const TOKENS = [
  '<|im_end|>', // ChatML: Qwen, Hermes, SmolLM, LFM2
  '<|endoftext|>', // Qwen's, Phi's and SmolLM's end of text
  '<|eot_id|>', // Llama 3.x
  '<|eot|>', // Llama 4
  '<end_of_turn>', // Gemma 2 and 3
  '<eos>', // Gemma's end of sequence
  '<turn|>', // Gemma 4
  '<|end|>', // Phi-3 and 4, GPT-OSS
  '</s>', // Mistral
  '<|observation|>', // GLM
  '<｜end▁of▁sentence｜>', // DeepSeek
  '<|end▁of▁sentence|>', // DeepSeek, its bars in ASCII
];

test('the corpus has positives to vary', () => {
  expect(positives.length).toBeGreaterThan(1000);
});

describe.each(TOKENS.map((t) => [t] as const))('%s after the reply', (token) => {
  test('every positive gives the same calls, glued to the reply or on a line of its own', () => {
    const changed = [];
    for (const c of positives) {
      for (const reply of [`${c.output}${token}`, `${c.output}\n${token}\n`]) {
        const calls = parseToolCalls(reply, c.tools).calls;
        if (JSON.stringify(calls) !== JSON.stringify(c.calls)) changed.push({ id: c.id, reply: reply.slice(-80), calls });
      }
    }
    expect(changed).toEqual([]);
  });

  test('the stream filter shows every output as it does without the token', () => {
    const squash = (s: string) => s.replace(/\s+/g, ' ').trim();
    const changed = [];
    for (const c of cases) {
      for (const size of [1, 5]) {
        const without = squash(streamThrough(c.output, c.tools, size));
        const shown = squash(streamThrough(`${c.output}${token}`, c.tools, size));
        if (shown !== without) changed.push({ id: c.id, size, without: without.slice(-80), shown: shown.slice(-80) });
      }
    }
    expect(changed).toEqual([]);
  });
});

describe('what the tokens do not take', () => {
  const tools = [{ name: 'read_page', parameters: { type: 'object', properties: {} } }];

  test('a token before more of the reply hides only itself', () => {
    const reply = 'First part.<|im_end|>\nSecond part, with read_page() named.';
    expect(parseToolCalls(reply, tools)).toMatchObject({ calls: [], text: 'First part.\nSecond part, with read_page() named.' });
    for (const size of [1, 4, reply.length]) expect(streamThrough(reply, tools, size)).toBe('First part.\nSecond part, with read_page() named.');
  });

  test('a </s> that closes a strikethrough stays, and the token after it goes', () => {
    for (const reply of ['The plan was <s>a call</s>', 'The plan was <s>a call</s><|im_end|>', 'The plan was <s>a call</s>\n<end_of_turn>']) {
      expect(parseToolCalls(reply, tools).text).toBe('The plan was <s>a call</s>');
      for (const size of [1, 3, reply.length]) expect(streamThrough(reply, tools, size).trim()).toBe('The plan was <s>a call</s>');
    }
  });

  test('the start of a token that never completes is shown', () => {
    for (const reply of ['Compare a<b and c', 'Tags such as <end_of', 'See [|endof']) {
      expect(parseToolCalls(reply, tools).text).toBe(reply);
      for (const size of [1, 2, reply.length]) expect(streamThrough(reply, tools, size)).toBe(reply);
    }
  });

  test('a bare call opening the reply is read before its end token, and hidden as it streams', () => {
    const reply = 'read_page()<end_of_turn>';
    expect(parseToolCalls(reply, tools).calls).toEqual([{ name: 'read_page', arguments: {} }]);
    for (const size of [1, 3, reply.length]) expect(streamThrough(reply, tools, size)).toBe('');
  });
});
