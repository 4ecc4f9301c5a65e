/**
 * Injected into a page's content-script world by the Firefox bench: reads the page with the same
 * code the page agent runs and leaves the timing where the injecting script can return it.
 */
import { readPage, renderSnapshotForPrompt } from '../../src/content/dom-reader';

const start = performance.now();
const snapshot = readPage(document, { maxTokens: 3000, includeInteractive: true });
const rendered = renderSnapshotForPrompt(snapshot);
(globalThis as unknown as { __foxagentBench: unknown }).__foxagentBench = { ms: performance.now() - start, chars: rendered.length, elements: snapshot.elements.length };
