/**
 * Link targets, resolved against each document's base URL once per reading pass. Reading
 * `a.href` re-derives the base on every access in some DOM implementations, which made link-heavy
 * pages slow to read.
 */
export type HrefResolver = (el: Element) => string | undefined;

export function hrefResolver(): HrefResolver {
  const bases = new Map<Document, string>();
  return (el) => {
    const raw = el.getAttribute('href');
    if (raw === null) return undefined;
    const doc = el.ownerDocument;
    let base = bases.get(doc);
    if (base === undefined) {
      base = doc.baseURI;
      bases.set(doc, base);
    }
    try {
      return new URL(raw.trim(), base).href;
    } catch {
      return undefined;
    }
  };
}
