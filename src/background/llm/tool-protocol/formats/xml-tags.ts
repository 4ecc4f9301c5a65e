/** Tools written as their own XML tags: `<click id="3" />` or `<fill><id>3</id><text>hi</text></fill>` (Cline style). */
import { matchesOf, type Detector, type Span } from '../scan';
import { decodeEntities, parseLooseJson, xmlValue } from '../values';

function attributesOf(raw: string): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const m of matchesOf(/([\w:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>/]+))/g, raw)) args[m[1]!.toLowerCase()] = decodeEntities(m[2] ?? m[3] ?? m[4] ?? '');
  return args;
}

/** Child elements `<param>value</param>`; a body that is only JSON is taken as the arguments. */
function childrenOf(body: string): Record<string, unknown> | undefined {
  const args: Record<string, unknown> = {};
  let found = false;
  for (const m of matchesOf(/<([\w-]+)(?:\s[^<>]*)?>([\s\S]*?)<\/\1\s*>/g, body)) {
    args[m[1]!.toLowerCase()] = xmlValue(m[2]!);
    found = true;
  }
  if (found) return args;
  const trimmed = body.trim();
  if (!trimmed) return {};
  const json = trimmed.startsWith('{') ? parseLooseJson(trimmed) : undefined;
  return json && typeof json === 'object' && !Array.isArray(json) ? json : undefined;
}

export const xmlTags: Detector = (ctx) => {
  const spans: Span[] = [];
  for (const m of matchesOf(/<([A-Za-z_][\w.-]*)((?:\s+[\w:-]+\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'>/]+))*)\s*(\/?)>/g, ctx.text)) {
    if (ctx.isProtected(m.index)) continue;
    const name = ctx.resolve(m[1]!);
    if (!name) continue;
    const attributes = attributesOf(m[2] ?? '');
    const openEnd = m.index + m[0].length;
    if (m[3] === '/') {
      spans.push({ start: m.index, end: openEnd, calls: [{ name, arguments: attributes }] });
      continue;
    }
    // A tag is only a call when it is closed: "use the <click> tag" is talk about tags.
    const close = new RegExp(`</${m[1]!.replace(/[.]/g, '\\.')}\\s*>`, 'i').exec(ctx.text.slice(openEnd));
    if (!close) continue;
    const children = childrenOf(ctx.text.slice(openEnd, openEnd + close.index));
    if (!children) continue;
    spans.push({ start: m.index, end: openEnd + close.index + close[0].length, calls: [{ name, arguments: { ...attributes, ...children } }] });
  }
  return spans;
};
