/**
 * The chat templates' special tokens that are never the model's words, as servers that keep special tokens leave them in
 * the text: the ends of turns and of the sequence, and the reasoning closers that are no tag. Read by the parser and by the
 * stream filter alike.
 */

/**
 * Tokens that end a turn or the sequence, as servers that keep special tokens leave them: Llama 3's and 4's, ChatML's,
 * Phi's, GPT-OSS's final return, DeepSeek's, Granite's, Command R's, Nemotron's, Functionary v2's; Gemma 2 and 3's end of
 * turn and of sequence, Gemma 4's end of turn; the end of text of Qwen's, Phi's, SmolLM's and OLMo's tokenizers; GLM's
 * and ChatGLM's turn end after a call; DeepSeek Coder's, EXAONE's, Seed-OSS's and Hunyuan's ends.
 */
export const TURN_END_TOKENS = [
  '<|eot_id|>', '<|eom_id|>', '<|eot|>', '<|eom|>', '<|im_end|>', '<|end|>', '<|return|>', '<｜end▁of▁sentence｜>',
  '<|end▁of▁sentence|>', '<|end_of_text|>', '<|END_OF_TURN_TOKEN|>', '<|END_RESPONSE|>', '<SPECIAL_12>', '<|stop|>',
  '<end_of_turn>', '<eos>', '<turn|>', '<|endoftext|>', '<|observation|>', '<|EOT|>', '[|endofturn|]', '<seed:eos>', '<|eos|>',
];

/** Template tokens some servers leave in the text: hidden wherever they stand, as the parser drops them. */
export const END_TOKENS = [
  ...TURN_END_TOKENS,
  // GPT-OSS's end of a call, Granite's and Mistral's ends of a call list.
  '<|call|>', '<|/tool_call|>', '[/TOOL_CALLS]',
  // PLaMo 3's token after its tool requests.
  '<|plamo:tag|>',
  // Command R's turn and response markers; Command A's text markers.
  '<|START_RESPONSE|>', '<|CHATBOT_TOKEN|>', '<|START_TEXT|>', '<|END_TEXT|>',
  // Phi-4's assistant header leaked after a call, Gemma 4's tool-response opener after one.
  '<|assistant|>', '<|tool_response>',
  // Kimi K3's response and message markers.
  '<|open|>response<|sep|>', '<|close|>response<|sep|>', '<|close|>message<|sep|>',
  // Llama 3's header closer left after another template's header (`<|im_start|>assistant<|end_header_id|>`, Hermes 2 Theta).
  '<|end_header_id|>',
  // Qwen2.5-Coder's fill-in-the-middle and repository tokens, left where a server keeps special tokens.
  '<|fim_prefix|>', '<|fim_middle|>', '<|fim_suffix|>', '<|fim_pad|>', '<|repo_name|>', '<|file_sep|>',
];

/** `</s>` ending the reply with no `<s>` before it on its line: Mistral's (and Llama 2's) end of sequence, not a strikethrough's end. */
export const END_OF_REPLY_EOS = /(?<!<s>[^\n]{0,300})<\/s>\s*$/;

/**
 * The reasoning closers that are no tag: Apriel's `[BEGIN FINAL RESPONSE]`, Kimi K3's `<|close|>think<|sep|>`, Gemma 4's `<channel|>`,
 * Command A's `<|END_THINKING|>` (its template opening the reasoning).
 */
export const LONE_REASONING_TOKENS: readonly string[] = ['[BEGIN FINAL RESPONSE]', '<|close|>think<|sep|>', '<channel|>', '<|END_THINKING|>'];
/** A reasoning closer standing alone (the template opened the reasoning): `</think>`, `</mm:think>`, `</think:opensource>`, or one of the tokens above. */
export const LONE_REASONING_END = new RegExp(`<\\/(?:(?:mm|seed):)?(?:think|thinking)(?::[\\w-]{1,20})?>|${LONE_REASONING_TOKENS.map(escapeRegExp).join('|')}`, 'i');

export function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
