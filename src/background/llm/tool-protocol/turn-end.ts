/**
 * The end-of-turn tokens a reply closes with. A server that keeps special tokens leaves them after whatever the model
 * wrote last (`…)<end_of_turn>`); they mean only that the turn ended, as the end of the text does. The parser reads the
 * reply without them, and the stream filter keeps them back until it knows whether more follows, so every form read at
 * the end of a reply is read, and hidden, before them as well.
 */
import { END_OF_REPLY_EOS, TURN_END_TOKENS } from './template-tokens';

/** DeepSeek's end of sentence, with the bars and separators a server may have turned into ASCII. */
const DEEPSEEK_END = /<[｜|]end[▁_ ]of[▁_ ]sentence[｜|]>$/;
/** Mistral's (and Llama 2's) end of sequence, which may also close a strikethrough. */
const EOS = '</s>';
/**
 * Tokens that end a reply only where nothing follows them: FunctionGemma's tool-response opener, its stop after a call
 * (with words after it, it opens a response the model invented, which is hidden as reasoning); Hunyuan's `</answer>`,
 * closing what the user sees.
 */
const ENDING_ONLY = ['<start_function_response>', '</answer>'];
const TOKENS = [...TURN_END_TOKENS, ...ENDING_ONLY];

/** `</s>` ending at `end` with no `<s>` before it on its line: an end of sequence. */
const eosEndingLine = (text: string, end: number) => END_OF_REPLY_EOS.test(text.slice(Math.max(0, end - 310), end));

/** The length of the turn-end token that ends at `end` in `text`, or 0; `</s>` counts where `endOfSequence` says so. */
function tokenBefore(text: string, end: number, endOfSequence: (text: string, end: number) => boolean): number {
  const last = text[end - 1];
  if (last !== '>' && last !== ']') return 0;
  const token = TOKENS.find((t) => text.endsWith(t, end));
  if (token) return token.length;
  if (text.endsWith(EOS, end)) return endOfSequence(text, end) ? EOS.length : 0;
  return DEEPSEEK_END.exec(text.slice(Math.max(0, end - 24), end))?.[0].length ?? 0;
}

/**
 * Where the run of turn-end tokens (and the blanks between and after them) that ends `text` before `end` begins; `end`
 * when no token ends it. Blanks before the first token stay with the text.
 */
export function turnEndStart(text: string, end = text.length, endOfSequence = eosEndingLine): number {
  let at = end;
  for (;;) {
    let before = at;
    while (before > 0 && /\s/.test(text[before - 1]!)) before--;
    const length = tokenBefore(text, before, endOfSequence);
    if (!length) return at;
    at = before - length;
  }
}

/** The length of the longest end of `text` that begins a turn-end token without completing it (`<|im_e`). */
function partialToken(text: string): number {
  const from = Math.max(text.length - 24, 0);
  if (text.indexOf('<', from) === -1 && text.indexOf('[', from) === -1) return 0;
  let best = 0;
  for (const token of [...TOKENS, EOS]) {
    for (let k = Math.min(token.length - 1, text.length); k > best; k--) {
      if (text.endsWith(token.slice(0, k))) {
        best = k;
        break;
      }
    }
  }
  return best;
}

/** Text held back at the end of a stream past this length is let through: the tokens in it are hidden where they stand. */
const MAX_HELD = 256;
const always = () => true;

/**
 * Keeps back the turn-end tokens a stream has ended with so far, and any start of one still arriving. `push` returns the
 * text to pass on now. `end` returns what was kept back if it was not turn-end tokens after all, and '' if it was; a
 * `</s>` among them ends the sequence where `eosEndsLine` says nothing on its line opened a strikethrough.
 */
export function turnEndHolder(): { push(delta: string): string; end(eosEndsLine: () => boolean): string } {
  let kept = '';
  return {
    push(delta) {
      const text = kept + delta;
      const at = turnEndStart(text, text.length - partialToken(text), always);
      kept = text.length - at > MAX_HELD ? '' : text.slice(at);
      return kept ? text.slice(0, at) : text;
    },
    end(eosEndsLine) {
      const eos = kept.lastIndexOf(EOS);
      // A `</s>` that closes a strikethrough stays, with what is before it; the tokens after it go.
      const rest = turnEndStart(kept, kept.length, always) !== 0 ? kept : eos === -1 || eosEndsLine() ? '' : kept.slice(0, eos + EOS.length);
      kept = '';
      return rest;
    },
  };
}
