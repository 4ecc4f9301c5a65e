/**
 * Call tags that name the tool in an attribute: MiniCPM5's `<function name="…">` holding one
 * `<param name="…">` per argument, and DeepSeek V4's `<tool_call id="…" name="…">` holding the
 * arguments as JSON. Each is read up to its own closing tag; one still open at the end of the
 * reply inside its arguments was cut off.
 */
import { matchesOf, named, spanOf, type Attempt, type Detector, type Span } from '../scan';
import { jsonEnding, parseLooseJson } from '../values';
import { XmlNode } from '../xml-tree';

const CDATA_OPEN = '<![CDATA[';
const PARAM_OPEN = /<param\s+name\s*=\s*"([^"<>]{1,100})"\s*>/gi;

/**
 * `<param name="k">v</param>` pairs, in one pass: a value is the text up to its closing tag, or a
 * CDATA section (which may hold `</param>` itself). Undefined when the last value is still open.
 */
function paramsOf(body: string): Record<string, unknown> | undefined {
  const args: Record<string, unknown> = {};
  PARAM_OPEN.lastIndex = 0;
  for (let m = PARAM_OPEN.exec(body); m; m = PARAM_OPEN.exec(body)) {
    const from = m.index + m[0].length;
    const cdata = body.startsWith(CDATA_OPEN, from) ? body.indexOf(']]>', from + CDATA_OPEN.length) : -1;
    const close = body.indexOf('</param>', cdata === -1 ? from : cdata);
    if (close === -1 || (body.startsWith(CDATA_OPEN, from) && cdata === -1)) return undefined;
    // The value exactly as written (its CDATA unwrapped later): the schema types it.
    args[m[1]!] = new XmlNode(body.slice(from, close), 'none');
    PARAM_OPEN.lastIndex = close + '</param>'.length;
  }
  return args;
}

/** MiniCPM5: `<function name="tool"><param name="k">v</param>…</function>`. */
export const functionNamed: Detector = (ctx) => {
  const spans: Span[] = [];
  for (const m of matchesOf(/<function\s+name\s*=\s*"([^"<>]{1,100})"\s*>([\s\S]*?)(<\/function>|$)/gi, ctx.text)) {
    if (ctx.isProtected(m.index)) continue;
    const body = m[2]!;
    if (body.trim() && !/^\s*<param\s/i.test(body)) continue;
    const args = paramsOf(body);
    const attempt: Attempt = args ? named(ctx.resolve, m[1]!, args) : { problem: m[3] ? 'unparsable' : 'cut_off', name: m[1] };
    spans.push(spanOf(m.index, m.index + m[0].length, [attempt], 'tail'));
  }
  return spans;
};

/**
 * DeepSeek V4: `<tool_call id="…" name="tool">{…arguments…}</tool_call>`; fine-tunes write the tag in the pipes of
 * their special tokens (`<|tool_call name="bash">{…}</tool_call|>`, a Mistral-NeMo fine-tune's).
 */
export const toolCallNamed: Detector = (ctx) => {
  const spans: Span[] = [];
  for (const m of matchesOf(/<\|?tool_call\s[^<>]{0,200}?\bname\s*=\s*["']([^"'<>]{1,100})["'][^<>]{0,200}>([\s\S]*?)(<\/tool_call\s*\|?>|<\|\/tool_call\|>|$)/gi, ctx.text)) {
    if (ctx.isProtected(m.index)) continue;
    const body = m[2]!.trim();
    let attempt: Attempt;
    if (!body) attempt = m[3] ? named(ctx.resolve, m[1]!, {}) : { problem: 'cut_off', name: m[1] };
    else if (body[0] !== '{') continue;
    else if (!m[3] && jsonEnding(body) === 'cut') attempt = { problem: 'cut_off', name: m[1] };
    else {
      const args = parseLooseJson(body);
      attempt = args && typeof args === 'object' && !Array.isArray(args) ? named(ctx.resolve, m[1]!, args) : { problem: 'unparsable', name: m[1] };
    }
    spans.push(spanOf(m.index, m.index + m[0].length, [attempt], 'token'));
  }
  return spans;
};
