/**
 * Pages no extension may script in Firefox, or that FoxAgent must not touch. Each gets a clear
 * "cannot act on this page" instead of a cryptic injection failure.
 */
const RESTRICTED_HOSTS = ['addons.mozilla.org', 'accounts.firefox.com', 'testpilot.firefox.com', 'support.mozilla.org'];

export function restrictionOf(url: string | undefined): string | undefined {
  if (!url) return 'This tab has no page FoxAgent can read.';
  if (url.startsWith('view-source:')) return 'FoxAgent cannot act on view-source pages.';
  if (url.startsWith('about:reader')) return 'FoxAgent cannot act in Reader View. Leave Reader View and try again.';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'This tab has no page FoxAgent can read.';
  }
  if (['about:', 'moz-extension:', 'chrome:', 'resource:', 'jar:', 'data:', 'blob:'].includes(parsed.protocol)) {
    return `FoxAgent cannot read or act on ${parsed.protocol.replace(':', '')}: pages (Firefox protects them).`;
  }
  if (RESTRICTED_HOSTS.includes(parsed.hostname)) return `Firefox does not let extensions act on ${parsed.hostname}.`;
  if (/\.pdf($|[?#])/i.test(parsed.pathname)) return 'FoxAgent cannot act inside Firefox’s PDF viewer.';
  if (!['http:', 'https:', 'file:'].includes(parsed.protocol)) return `FoxAgent cannot act on ${parsed.protocol} pages.`;
  return undefined;
}
