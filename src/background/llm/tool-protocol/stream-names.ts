/**
 * The patterns the streaming filter builds from the offered tools' names, once per reply: how a call of an offered tool
 * may open (`name(`, `<name>`, `name[ARGS]`, `**name(`, …). `stream-partial.ts` asks whether held text may still become
 * one; `stream-recognise.ts` which one it has become.
 */
import { callLabel } from './formats/reply-calls';
import { FENCED_WRAPPERS } from './formats/fenced';
import { ARGUMENTS_ELEMENTS, LEAD_ELEMENTS, NAME_ELEMENTS } from './formats/element-calls';
import { declaredFields } from './formats/name-lines';
import { wrapper, type CloserSpec } from './stream-openers';
import { escapeRegExp } from './template-tokens';
import type { Position } from './stream-recognise';
import { createToolTable, nameKey, toolNameOf, type ToolInput } from './tools';

/** A call written as XML elements without a wrapper, up to its arguments' element (formats/tagged.ts `elementCalls`). */
const ELEMENT_CALL_HEAD = new RegExp(`^(?:<(${LEAD_ELEMENTS})>[^<\\n]{0,200}<\\/\\1>\\s*)*<(${NAME_ELEMENTS})>[ \\t]*([\\w.:-]{1,100})[ \\t]*<\\/\\2>(\\s*<(?:(${ARGUMENTS_ELEMENTS})>)?)?`, 'i');
const ELEMENT_CALL_START = new RegExp(`^<(?:${LEAD_ELEMENTS}|${NAME_ELEMENTS})>`, 'i');

/** Whether text starts with a fence's character: no other opener does (every fixed opener is a tag, a bracket or a word). */
export const startsFence = (text: string) => text[0] === '`' || text[0] === '~';

/** The call wrappers a fence opening the reply may hold, as the parser unwraps them. */
export const FENCED_WRAPPER_TAGS = FENCED_WRAPPERS.map((t) => `<${t}>`);


export type NamePatterns = ReturnType<typeof namePatterns>;

export function namePatterns(tools: readonly ToolInput[]) {
  const table = createToolTable(tools);
  // Each name also without its `_` (`webfetch`), as the parser resolves `WebFetch` to `web_fetch`, and with Markdown's escaped `\_`.
  const names = [...new Set(tools.flatMap((t) => [nameKey(toolNameOf(t)), nameKey(toolNameOf(t)).replace(/_/g, ''), nameKey(toolNameOf(t)).replace(/_/g, '\\_')]))];
  const nameFirsts = new Set(names.map((n) => n[0]));
  const namePattern = names.map((n) => escapeRegExp(n).replace(/_/g, '[-_]')).join('|') || '(?!)';
  const toolTag = new RegExp(`^<(${namePattern})(?=[\\s/>])`, 'i');
  /** `name(`, `[name(` and Qwen's `[Calling tool: name(`; Llama 3.1's built-in `name.call(`. */
  const pythonStart = new RegExp(`^\\[?\\s*(?:(?<=\\[\\s*)['"])?(?:Calling tool:\\s*)?(?:(?:functions?|tools?|default_api)[.:])?(${namePattern})(?:\\.call)?\\s*\\(`, 'i');
  /** A list of strings whose first holds a call's JSON (`["{\"name\": …}", …]`) or a Python call (`["name(…)", …]`). */
  const quotedCallList = new RegExp(`^\\[\\s*["'](?:\\{|(?:(?:functions?|tools?|default_api)[.:])?(?:${namePattern})\\s*\\()`, 'i');
  /** Whether all that was shown is a label opening the reply (`tools call: `): calls may follow it on its line, as the parser reads them. */
  const afterCallLabel = (at: Position) => {
    const shownText = at.recent.length <= 80 ? at.recent.trimStart() : '';
    return !at.lineQuoted && /:[ \t*_]*[ \t]$/.test(shownText) && callLabel(shownText)?.[0].length === shownText.length;
  };
  /** A tool's name as models may write it: with the `default_api.` or `functions.` namespace the parser also reads. */
  const prefixedName = `(?:(?:functions?|tools?|default_api)[.:])?(${namePattern})`;
  /** Gemma's and Gemini's unfenced tool code: `tool_code = name(…)` or `print(name(…))`. */
  const wrappedCall = new RegExp(`^(?:tool_code[ \\t]*=[ \\t]*|print\\([ \\t]*)${prefixedName}[ \\t]*\\(`, 'i');
  /** Mistral without its `[TOOL_CALLS]` token: `name[ARGS]{…}` or `name[CALL_ID]id[ARGS]{…}`. */
  const mistralArgs = new RegExp(`^(${namePattern})(?:\\[CALL_ID\\][\\w-]*)?[ \\t]*\\[ARGS\\]`, 'i');
  const bareFunction = new RegExp(`^(${namePattern})\\{`, 'i');
  /** A ReAct action written as a call of an offered tool, `name(…)` or `name[…]`, no input line after it (formats/react.ts). */
  const reactCall = new RegExp(`^Action:[ \\t]*(?:${namePattern})[ \\t]*[([]`, 'i');
  /** A JSON object keyed by a tool's name, its arguments the value: `{"list_directory": {"path": "."}}`. */
  /** A call in bold or as a heading (`**name(`, `## name(`). */
  const decoratedCall = new RegExp(`^(?:(?:\\*\\*|__)(?:\\[[ \\t]*)?|#{1,6}[ \\t]+)(?:${namePattern})\\s*\\(`, 'i');
  /** A list of `(name, {…})` pairs (Mistral's API models in BFCL) or `[name, {…}]` ones (Qwen2.5). */
  const pairCallList = new RegExp(`^\\[\\s*[([]\\s*["'](${namePattern})["']\\s*,`, 'i');
  const toolKeyedJson = new RegExp(`^\\{\\s*["'](${namePattern})["']\\s*:\\s*\\{`, 'i');
  /** Functionary v3.2: the recipient's name on its line (perhaps in bold), then the arguments. */
  const recipientArgs = new RegExp(`^(?:\\*\\*(?:${namePattern})\\*\\*|(?:${namePattern}))[ \\t]*\\n\\s*\\{`, 'i');
  /** Functionary v2, its prompt ending at `<|recipient|>`: the name, then `<|content|>` and the arguments. */
  const recipientContent = new RegExp(`^(${namePattern})[ \\t]*\\n?[ \\t]*<\\|content\\|>`, 'i');
  /** Kimi K2's call line without its opening tokens: `name:0<|tool_call_argument_begin|>` (formats/kimi.ts). */
  const kimiHeadless = new RegExp(`^[ \\t]*(?:functions\\.)?(${namePattern}):\\d{1,4}[ \\t]*<\\|tool_call_argument_begin\\|>`, 'i');
  /** A chat client's logged call, copied: `[Calling tool: name with arguments: {` (formats/bare.ts). */
  const loggedCall = new RegExp(`^\\[\\s*Calling tool:\\s*(?:${namePattern})\\s+with arguments:\\s*\\{`, 'i');
  /** The same log line alone, then MiniMax's parameters on the lines below (formats/tagged.ts). */
  const loggedInvoke = new RegExp(`^\\[Calling tool:[ \\t]*(?:${namePattern})\\][ \\t]*\\r?\\n\\s*<parameter\\s+name\\s*=`, 'i');
  /** A prompt's label pair, `TOOL_CALL: name` then `ARGS: {`, and ChatGLM3's name line then `tool_call(` (formats/label-calls.ts). */
  const labelPair = new RegExp(`^TOOL_CALL:[ \\t]*(?:${namePattern})[ \\t]*\\r?\\n[ \\t]*ARGS:[ \\t]*\\{`, 'i');
  const chatglmHead = new RegExp(`^(?:${namePattern})[ \\t]*\\r?\\n[ \\t]*tool_call\\(`, 'i');
  /** Kimi K2's call with every token stripped: `functions.name:0{` (formats/kimi.ts), glued to the words before it. */
  const kimiBare = new RegExp(`^functions\\.(?:${namePattern}):\\d{1,4}[ \\t]*\\{`, 'i');
  const kimiPrefix = (rest: string) => {
    const id = /^:\d{0,4}[ \t]*/.exec(rest);
    return id !== null && (id[0].length === rest.length || (/\d/.test(id[0]) && '<|tool_call_argument_begin|>'.startsWith(rest.slice(id[0].length))));
  };
  const mistralPrefix = (rest: string) => '[args]'.startsWith(rest.trimStart()) || '[call_id]'.startsWith(rest) || /^\[call_id\][\w-]*(\[(a(r(g(s\]?)?)?)?)?)?$/.test(rest);

  /**
   * A call written as XML elements at the start of `text`: how it closes once its arguments' element opened, `maybe`
   * while it may still become one (held: its name's element or the arguments' still arriving), else undefined.
   */
  const elementCall = (text: string): CloserSpec | 'maybe' | undefined => {
    if (!ELEMENT_CALL_START.test(text)) return undefined;
    const head = ELEMENT_CALL_HEAD.exec(text);
    if (!head) return text.length < 400 && !/\n[ \t]*[^\s<]/.test(text) ? 'maybe' : undefined;
    if (!table.resolve(head[3]!)) return undefined;
    if (head[5]) return wrapper(new RegExp(`</${head[5]}>(?:\\s*</tool_call>)?`, 'i'));
    // After the name's element, blanks and what may still become the arguments' opening tag.
    const rest = text.slice(head[0].length - (head[4]?.length ?? 0)).trimStart().toLowerCase();
    return rest.length < 20 && ARGUMENTS_ELEMENTS.split('|').some((t) => `<${t}>`.startsWith(rest)) ? 'maybe' : undefined;
  };

  /** `tool_code = `, `print(` and a namespace (`default_api.`) before a tool's name, still arriving. */
  const couldBeWrappedName = (lower: string): boolean => {
    if ('tool_code'.startsWith(lower) || /^tool_code[ \t]*=?[ \t]*$/.test(lower) || 'print('.startsWith(lower)) return true;
    const lead = /^(?:tool_code[ \t]*=[ \t]*|print\([ \t]*)?/.exec(lower)![0];
    const rest = lower.slice(lead.length);
    const namespace = /^(?:functions?|tools?|default_api)[.:]/.exec(rest)?.[0] ?? '';
    if ((lead || namespace) && names.some((n) => n.startsWith(rest.slice(namespace.length)))) return true;
    return !namespace && rest !== '' && ['default_api.', 'functions.'].some((w) => w.startsWith(rest));
  };

  /**
   * A tool's name alone on its line, then its first argument's `key:` or `key=` (formats/name-lines.ts `fieldLines`):
   * `true` once the key is one the tool declares, `'maybe'` while it may still become one.
   */
  const fieldsHead = (text: string): boolean | 'maybe' => {
    const m = /^([A-Za-z_][\w.-]{0,99})[ \t]*\r?\n[ \t]*([A-Za-z_][\w-]{0,63})?([ \t]*[:=])?/.exec(text);
    const name = m && table.resolve(m[1]!);
    const fields = name ? declaredFields(table.schemaOf(name)) : undefined;
    if (!m || !fields) return false;
    if (m[3]) return fields.declared.has(m[2]!);
    if (m[0].length < text.length || text.length > 200) return false;
    return [...fields.declared].some((k) => k.startsWith(m[2] ?? ''));
  };

  return {
    table,
    names,
    fieldsHead,
    nameFirsts,
    toolTag,
    pythonStart,
    quotedCallList,
    afterCallLabel,
    wrappedCall,
    mistralArgs,
    bareFunction,
    reactCall,
    decoratedCall,
    pairCallList,
    toolKeyedJson,
    recipientArgs,
    recipientContent,
    kimiHeadless,
    loggedCall,
    loggedInvoke,
    labelPair,
    chatglmHead,
    kimiBare,
    kimiPrefix,
    mistralPrefix,
    elementCall,
    couldBeWrappedName,
  };
}
