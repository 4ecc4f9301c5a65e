/**
 * The element ids of the latest snapshot, kept where the page cannot see them: a map in the page
 * agent's own memory, never an attribute in the DOM the page could read, copy or move. Each
 * snapshot gets a random nonce, and its ids are valid only while it is the latest one. The
 * document gets a token too, which changes when the page replaces its document (document.open),
 * so an action prepared for one document is never carried out in another.
 */
import { ActionError } from './page-actions';

const STALE = 'Read the page again for fresh ids.';

function randomToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

interface Snapshot {
  nonce: string;
  elements: Map<number, WeakRef<Element>>;
}

export class ElementRegistry {
  private root: Element | null;
  private token: string;
  private snapshot: Snapshot | undefined;

  constructor(
    private readonly doc: Document,
    private readonly random: () => string = randomToken,
  ) {
    this.root = doc.documentElement;
    this.token = random();
  }

  /** This document's token; a new one (and no valid ids) once the page replaced its document. */
  get docToken(): string {
    if (this.doc.documentElement !== this.root) {
      this.root = this.doc.documentElement;
      this.token = this.random();
      this.snapshot = undefined;
    }
    return this.token;
  }

  /** The latest snapshot's nonce, if one has been taken in this document. */
  get nonce(): string | undefined {
    void this.docToken;
    return this.snapshot?.nonce;
  }

  /** Numbers `elements` 1… for a new snapshot; the ids of every earlier snapshot stop working. */
  issue(elements: readonly Element[]): string {
    void this.docToken;
    const nonce = this.random();
    this.snapshot = { nonce, elements: new Map(elements.map((el, i) => [i + 1, new WeakRef(el)])) };
    return nonce;
  }

  /** The latest snapshot's elements still on the page, with their ids. */
  live(): { id: number; el: Element }[] {
    if (!this.nonce) return [];
    const out: { id: number; el: Element }[] = [];
    for (const [id, ref] of this.snapshot!.elements) {
      const el = ref.deref();
      if (el?.isConnected && inLiveFrame(el)) out.push({ id, el });
    }
    return out;
  }

  /**
   * The id `el` has in the latest snapshot, given one after the others when it has none (an
   * element found at a point of a screenshot): earlier ids stay valid. Undefined with no snapshot.
   */
  adopt(el: Element): number | undefined {
    if (!this.nonce) return undefined;
    const elements = this.snapshot!.elements;
    let last = 0;
    for (const [id, ref] of elements) {
      if (ref.deref() === el) return id;
      last = Math.max(last, id);
    }
    elements.set(last + 1, new WeakRef(el));
    return last + 1;
  }

  /** The live element snapshot `nonce` numbered `id`; a clear error when that is not possible. */
  resolve(nonce: string, id: number): Element {
    const current = this.nonce;
    if (!current) throw new ActionError('stale', `The page has not been read since it loaded (or it was replaced). ${STALE}`);
    if (nonce !== current) throw new ActionError('stale', `Element [${id}] comes from an older reading of the page. ${STALE}`);
    const el = this.snapshot!.elements.get(id)?.deref();
    if (!el) throw new ActionError('not_found', `There is no element [${id}] on the page now (the page has changed since it was read).`);
    if (!el.isConnected || !inLiveFrame(el)) throw new ActionError('detached', `The element [${id}] is no longer on the page. ${STALE}`);
    return el;
  }
}

/** An element of a same-origin frame counts only while that frame still shows its document. */
function inLiveFrame(el: Element): boolean {
  const frame = el.ownerDocument.defaultView?.frameElement as HTMLIFrameElement | null | undefined;
  if (!frame || el.ownerDocument === frame.ownerDocument) return true;
  return frame.isConnected && frame.contentDocument === el.ownerDocument && inLiveFrame(frame);
}
