import type { WebRequest } from 'webextension-polyfill';

/**
 * A stock Ollama answers 403 to any request whose Origin is a browser extension (unless the user
 * set OLLAMA_ORIGINS). The extension's own requests to the configured Ollama server therefore go
 * out without an Origin header — only those: the listener is registered for that one host, and
 * leaves alone every request that a web page, or another port on that host, makes.
 */
export function originRewriteFor(providerBaseUrl: string, extensionOrigin: string) {
  const target = new URL(providerBaseUrl);
  const filter: WebRequest.RequestFilter = { urls: [`${target.protocol}//${target.hostname}/*`] };
  const listener = (details: WebRequest.OnBeforeSendHeadersDetailsType): WebRequest.BlockingResponse => {
    const fromUs = (details.originUrl ?? '').startsWith(extensionOrigin) && details.tabId === -1;
    if (!fromUs || new URL(details.url).origin !== target.origin) return {};
    return { requestHeaders: (details.requestHeaders ?? []).filter((h) => h.name.toLowerCase() !== 'origin') };
  };
  return { filter, listener };
}

export interface WebRequestApi {
  onBeforeSendHeaders: {
    addListener(
      listener: (d: WebRequest.OnBeforeSendHeadersDetailsType) => WebRequest.BlockingResponse,
      filter: WebRequest.RequestFilter,
      extra: WebRequest.OnBeforeSendHeadersOptions[],
    ): void;
    removeListener(listener: (d: WebRequest.OnBeforeSendHeadersDetailsType) => WebRequest.BlockingResponse): void;
  };
}

/** Installs the rewrite for the current Ollama server, replacing the one for the previous. */
export function createOriginGuard(webRequest: WebRequestApi, extensionOrigin: string) {
  let current: ReturnType<typeof originRewriteFor>['listener'] | undefined;
  return (ollamaBaseUrl: string | undefined) => {
    if (current) webRequest.onBeforeSendHeaders.removeListener(current);
    current = undefined;
    if (!ollamaBaseUrl) return;
    const { filter, listener } = originRewriteFor(ollamaBaseUrl, extensionOrigin);
    webRequest.onBeforeSendHeaders.addListener(listener, filter, ['blocking', 'requestHeaders']);
    current = listener;
  };
}
