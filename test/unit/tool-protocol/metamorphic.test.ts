/**
 * The parser over variants of every real output in the corpus, to check that it reads families
 * rather than examples: a call keeps being read when a line of prose stands before it, and is
 * never read when the whole output is quoted in a Markdown block quote (also inside a fence in
 * the quote) — text a model copied from a page or from documentation.
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
  failures?: unknown[];
}
interface Family {
  family: string;
  tools: unknown[];
  cases: Case[];
}

const DIR = path.resolve(__dirname, '../../fixtures/tool-calls');
const cases = readdirSync(DIR)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .flatMap((f) => {
    const family = JSON.parse(readFileSync(path.join(DIR, f), 'utf8')) as Family;
    return family.cases.map((c) => ({ ...c, id: `${family.family}: ${c.name}`, tools: (c.tools ?? family.tools) as Parameters<typeof parseToolCalls>[1] }));
  });

/** Outputs whose start belongs to a template (a bare `</think>`: the template opened the reasoning), where prose cannot go first. */
const startsInTemplate = (output: string) => /<\/think>/.test(output) && !/<think>/.test(output);
const positives = cases.filter((c) => c.calls.length > 0);

test('the corpus has positives to vary', () => {
  expect(positives.length).toBeGreaterThan(50);
});

/**
 * Forms that are calls only as the whole reply, or at its very start: a bare Python call with no
 * brackets or markup (`read_page()`, which after prose is a sentence naming a function; likewise a
 * tool's name on a line with JSON on the next, Functionary's recipient forms: v3.2's, and v2's name then
 * `<|content|>` where its generation prompt ended at `<|recipient|>`), and a JSON
 * call with prose after it on its line (after a line of prose, the same JSON is data in a sentence),
 * and a call wrapper inside a fence (Qwen2's ```xml around `<function_call>`), a call only as the fence the reply opens with.
 */
const WHOLE_REPLY_ONLY = new Set([
  'pythonic: bare call, no brackets',
  'bare-json: OpenAI tool_calls object then prose',
  'llamacpp: functionary v3.2 recipient then arguments',
  'functionary-v2: the reply opens with the recipient',
  'round5: Qwen2 <function_call> JSON inside an ```xml fence',
  'round11: LLaMA-Factory glm4 extractor: tool name line then JSON arguments',
  // Python calls opening the reply (a run separated by `;`, a call and then words, a header token the server left before it), and GLM-4's name line.
  'round13: Meta-Llama-3-8B-Instruct (prompt mode) BFCL relevance_48: leaked <|start_header_id|> token glued to a pythonic call with year=None',
  'round13: NexusRaven-V2-13B BFCL executable_simple_69: one pythonic call ending in a semicolon',
  'round13: NexusRaven-V2-13B BFCL parallel_function_60: three pythonic calls separated by semicolons, dotted name',
  'round23: BFCL v1 2024-07-25 Nexusflow-Raven-v2 parallel_function_1',
  'round23: BFCL v1 2024-07-25 Nexusflow-Raven-v2 multiple_function_2',
  'round13: gemma-7b-it (prompt mode) BFCL simple_258: bare pythonic call, then a prose explanation',
  'round13: glm-4-9b-chat BFCL parallel_function_187: GLM-4 native name line + JSON with a boolean',
  'round13: glm-4-9b-chat BFCL simple_315: GLM-4 native: function name on its own line, JSON arguments on the next',
  // Python calls as the whole reply (Gorilla's comma-separated), and LFM2's list with words glued after it, which only opens a reply.
  'round14: gorilla-openfunctions-v2 BFCL parallel_function_38: bare comma-separated calls without list brackets',
  'round14: lfm2.5:1.2b P1 run 1: [f(a="x")] list then prose',
  'round14: lfm2.5:1.2b P3 run 1: [f(...list arg...)] then prose',
  'round14: lfm2.5:1.2b P8 run 1: two calls in one list, then prose',
  'round15: BFCL v1 command-r-plus parallel_multiple_function_3',
  'round15: BFCL v3 Qwen_Qwen2.5-3B-Instruct parallel_55 (AAFV run)',
  'round15: BFCL v1 open-mixtral-8x7b simple_37',
  'round15: BFCL v3 Qwen_Qwen2.5-3B-Instruct parallel_147 (AAFV run)',
  'round16: BFCL v3 Qwen2.5-7B-Instruct-leaderboard parallel_103',
  // Calls after a label opening the reply (`tools call:`, `**Function Calling Response**:`), and Python calls without brackets opening it, as in round 13.
  'pending-moved: BFCL v3 Qwen_Qwen2.5-1.5B-Instruct simple_340 (AAFV run)',
  "round25: claude-instant-1.2 (BFCL prompt mode) prefixes a pythonic call list with 'tools call:' on the same line",
  'round25: command-r-plus (BFCL prompt mode) writes two bare calls without brackets, separated by a blank line',
  // GLM-4's name line, as in round 13.
  "round22: GLM-4-9B-chat native 'name newline JSON' call (only the first of the two asked for)",
  "round22: GLM-4-9B-chat native 'name newline JSON' call with integer arguments",
  // NexusRaven's calls separated by `;`, Gorilla's separated by commas without brackets, and GLM-4's name line, as in round 13.
  'round27: raven-v2_semicolon_separated_pythonic_calls',
  'round27: gorilla-openfunctions-v2_four_bare_pythonic_calls_comma_separated',
  'round27: glm-4-9b_native_name_newline_json_call',
  // Calls in bold making up the whole reply, and a bare Gemma 4 call opening the reply after its thought channel.
  'round28: qwen25_1_5b_pythonic_call_wrapped_in_markdown_bold',
  'round28: llama32_3b_two_bold_bare_calls_on_separate_lines',
  'round28: gemma4-bare-call-glued-after-thought-channel-handwritten',
  // Calls in bold (a list of them too), after a bold label, and bare calls without brackets, as in rounds 13 and 28.
  'round29: llama3.2-3b_pythonic_list_wrapped_in_bold_markers',
  'round29: llama3.2-3b_bare_call_in_bold_no_list_brackets',
  'round29: llama3.2-3b_pythonic_list_after_bold_label',
  'round29: qwen2.5-3b_two_bare_calls_on_separate_lines',
  'round29: qwen2.5-3b_two_dotted_calls_comma_separated_without_list_brackets',
  // A ReAct step fenced whole counts only opening the reply: after words, the fence presents an example.
  'round30: crewai-cassette-gpt41-mini-react-unclosed-fence-invented-observation',
  'round30: crewai-cassette-gpt4o-mini-react-inside-code-fence',
  'round30: crewai-cassette-gpt41-mini-react-fenced-integer-args',
  // A tool's name in bold on its line before its arguments, and a call in inline code: whole replies only, as Functionary's recipient.
  'round31: deepseek-r1-distill-llama70b-groq-bold-tool-name-then-bare-json-args-confirmation',
  'round31: metagpt-openai-pythonic-call-in-backticks-text-to-image',
  // A tool's name on its line before its arguments (Functionary's recipient form), and an xml fence of call markup.
  'round32: glm-4-9b-0414-mlx-markerless-name-newline-json',
  'round32: gpt-4o-mini-bfcl-xml-function_calls-in-xml-fence-two-calls',
  'round32: gpt-4o-mini-bfcl-typed-xml-in-fence-array-args',
  // ChatGLM3's name line before `tool_call(…)`, a name line before JSON, Python calls opening the reply, a one-line JSON fence.
  'round35: chatglm3-6b-q8_0-chatglm.cpp-name-line-then-tool_call-kwargs',
  'round35: glm-4-9b-chat-openai-server-name-newline-json-in-content',
  'round35: nexusraven-v2-pythonic-two-calls-semicolon-tuple-args',
  'round35: deepseek-coder-v2-ollama-ai-sdk-json-fence-tellAJoke',
  // Calls in bold or as a heading, making up the reply (BFCL runs of Llama 3.2 3B and Llama 3.1 8B).
  'pending-moved: BFCL v3 meta-llama_Llama-3.2-3B-Instruct parallel_multiple_2 (AAFV run)',
  'pending-moved: BFCL v3 meta-llama_Llama-3.1-8B-Instruct simple_118 (AAFV run)',
  // A ReAct step fenced whole, opening the reply (crewAI's cassettes).
  'round36: crewai-gpt41mini-fenced-react-action-with-invented-observation-and-final-answer',
  'round36: crewai-gpt4o-mini-react-in-unclosed-code-fence',
  'round36: crewai-gpt4o-mini-react-unclosed-fence-json-input-trailing-space',
  'round38: crewai_gpt41mini_react_action_with_fabricated_observation',
  // A tool's name alone on the line opening the reply, its arguments as `key: value` lines below (formats/name-lines.ts).
  'pending-moved: Gemma-4 E2B tool name on its own line, then `key: value` lines',
  'pending-moved: deepseek-v4-local_bare-name-line-then-colon-key-value-lines_file_read',
  'pending-moved: deepseek-v4-local_bare-name-then-key-equals-value_then-hallucinated-answer_file_read',
  // Calls' JSON in one-line fences, and a Python call with the stripped header glued after it, opening the reply (formats/reply-calls.ts).
  'round40: rn-executorch-hammer21-fenced-json-array',
  'round40: rn-executorch-hammer21-fenced-array-then-empty-array',
  'round40: triton-trtllm-llama31-builtin-brave-search-then-continued',
]);

describe('a line of prose before the call', () => {
  test.each(positives.filter((c) => !startsInTemplate(c.output) && !WHOLE_REPLY_ONLY.has(c.id)).map((c) => [c.id, c] as const))('%s', (_id, c) => {
    expect(parseToolCalls(`Sure, I will do that now.\n\n${c.output}`, c.tools).calls).toEqual(c.calls);
  });
});

describe('the whole output quoted in a block quote', () => {
  const quoted = (text: string) => text.split('\n').map((line) => `> ${line}`).join('\n');
  test.each(positives.map((c) => [c.id, c] as const))('%s', (_id, c) => {
    expect(parseToolCalls(`The page says:\n\n${quoted(c.output)}\n\nI will not do that.`, c.tools).calls).toEqual([]);
    expect(parseToolCalls(`The docs show:\n\n${quoted(`\`\`\`\n${c.output}\n\`\`\``)}\n\nThat is the format.`, c.tools).calls).toEqual([]);
  });
});

describe('the stream filter shows a quoted output as the parser leaves it', () => {
  const quoted = (text: string) => text.split('\n').map((line) => `> ${line}`).join('\n');
  const squash = (s: string) => s.replace(/\s+/g, ' ').trim();
  test.each(positives.map((c) => [c.id, c] as const))('%s', (_id, c) => {
    const text = `The page says:\n\n${quoted(c.output)}\n\nI will not do that.`;
    const expected = squash(parseToolCalls(text, c.tools).text);
    for (const size of [1, 7, text.length]) expect({ size, shown: squash(streamThrough(text, c.tools, size)) }).toEqual({ size, shown: expected });
  });
});

/**
 * Forms that open with a template's role header, which no model writes after reasoning of its own: Functionary v2's
 * recipient (`all`, `python`) and Glimmer's `to=self`, which the filter reads as such only at the reply's very start.
 */
const ROLE_HEADED = new Set([
  'functionary-v2: two calls after a message to all',
  'functionary-v2: an answer to all',
  'functionary-v2: code sent to python',
  "round7: Muse Glimmer: ' to=self' reasoning, then ' to=get_weather' message with <atem:function_calls>/<atem:invoke>",
  'round7: Muse Glimmer: reasoning to=self, answer to=user, no call',
  // mistral.rs's Atem tests, which open with the same recipient header.
  'round30: mistralrs-atem-invoke-multiline-string-int-bool-params',
  'round30: mistralrs-atem-numeric-looking-string-param',
  'round30: mistralrs-atem-reasoning-call-then-final-content',
  // Ollama's Glimmer tests, which open with the same header.
  'round32: muse-glimmer-shape_atem-invoke_stray-message-token-in-invoke-name',
  'round32: muse-glimmer-shape_self-reasoning-then-atem-call-missing-recipient',
  // OpenVINO Model Server's Onyx tests, opening with the same header.
  'round37: onyx-atem-invoke-two-string-params',
  'round37: onyx-private-reasoning-then-no-arg-atem-call',
  'round37: onyx-reasoning-call-then-user-answer',
  'round37: onyx-user-answer-with-literal-to-equals-no-call',
  // mistral.rs's Atem parser tests again, opening with the same header.
  'round36: atem-self-channel-reasoning-then-namespaced-invoke',
  'round36: atem-two-turn-parallel-invokes-no-params',
]);

describe('reasoning before the reply', () => {
  const withReasoning = (output: string) => `<think>\nThe user wants this done. I will call the tool.\n</think>\n\n${output}`;
  const plain = cases.filter((c) => !/<\/?think>/.test(c.output));

  test('every positive gives the same calls after a <think> block: what follows the reasoning starts the reply', () => {
    const changed = plain
      .filter((c) => c.calls.length > 0)
      .map((c) => ({ id: c.id, calls: parseToolCalls(withReasoning(c.output), c.tools).calls, want: c.calls }))
      .filter((r) => JSON.stringify(r.calls) !== JSON.stringify(r.want));
    expect(changed).toEqual([]);
  });

  test('the stream filter shows what the parser leaves, in two chunkings', () => {
    const squash = (s: string) => s.replace(/\s+/g, ' ').trim();
    const differing = [];
    for (const c of plain.filter((c) => !ROLE_HEADED.has(c.id))) {
      const text = withReasoning(c.output);
      const expected = squash(parseToolCalls(text, c.tools).text);
      for (const size of [3, 11]) {
        const shown = squash(streamThrough(text, c.tools, size));
        if (shown !== expected) differing.push({ id: c.id, size, shown: shown.slice(0, 120), expected: expected.slice(0, 120) });
      }
    }
    expect(differing).toEqual([]);
  });
});
