/**
 * Pages no extension may script in Firefox, or that FoxAgent must not touch. Each gets a clear
 * "cannot act on this page" instead of a cryptic injection failure.
 */
import { say, type Localized } from '../../shared/i18n';
import { english } from '../english';

const RESTRICTED_HOSTS = ['addons.mozilla.org', 'accounts.firefox.com', 'testpilot.firefox.com', 'support.mozilla.org'];

/** Why FoxAgent cannot read or act on the page at `url`, in English (what the model and the tools say). */
export function restrictionOf(url: string | undefined): string | undefined {
  const said = restrictionSaid(url);
  return said && english(said);
}

/** The same reason as a catalogue key, for the user in their language. */
export function restrictionSaid(url: string | undefined): Localized | undefined {
  if (!url) return say('restrictedNoPage');
  if (url.startsWith('view-source:')) return say('restrictedViewSource');
  if (url.startsWith('about:reader')) return say('restrictedReaderView');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return say('restrictedNoPage');
  }
  if (['about:', 'moz-extension:', 'chrome:', 'resource:', 'jar:', 'data:', 'blob:'].includes(parsed.protocol)) return say('restrictedScheme', parsed.protocol.replace(':', ''));
  if (RESTRICTED_HOSTS.includes(parsed.hostname)) return say('restrictedHost', parsed.hostname);
  if (/\.pdf($|[?#])/i.test(parsed.pathname)) return say('restrictedPdf');
  if (!['http:', 'https:', 'file:'].includes(parsed.protocol)) return say('restrictedOther', parsed.protocol);
  return undefined;
}
