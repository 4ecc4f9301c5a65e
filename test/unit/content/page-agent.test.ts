/** @jest-environment jsdom */
/**
 * The page agent's requests under jsdom, with the same code that runs in the tab: ids live in the
 * agent's own map (nothing in the page), are valid for the latest snapshot only, and an action is
 * refused when the element, the document or the origin is not the one the gate inspected.
 */
import { createPageAgent, type PageAgent } from '../../../src/content/agent';
import type { ContentRequest, ElementRef, PageAction, TargetInfo } from '../../../src/shared/content-protocol';
import type { PageSnapshot } from '../../../src/shared/page-snapshot';

let agent: PageAgent;
let log: string[];

function page(html: string): void {
  document.body.innerHTML = html;
  log = [];
  (window as unknown as { log: string[] }).log = log;
  for (const el of Array.from(document.querySelectorAll('[data-log]'))) el.addEventListener('click', () => log.push(el.getAttribute('data-log')!));
  agent = createPageAgent(document, { mutations: () => 0 });
}

const send = <T>(request: ContentRequest) => agent.handle(request) as Promise<T>;
const read = () => send<{ snapshot: PageSnapshot }>({ type: 'page/read', options: {} }).then((r) => r.snapshot);
const idOf = (s: PageSnapshot, name: string) => s.elements.find((e) => e.name === name)!.id;
const inspect = (snapshot: string, id?: number, key?: string) => send<{ ref: ElementRef; target?: TargetInfo }>({ type: 'page/inspect', snapshot, id, key });
/** Inspects the element as the gate does, then acts with what it approved. */
async function inspectThenAct(s: PageSnapshot, action: PageAction, between?: () => void) {
  const { ref, target } = await inspect(s.nonce!, 'id' in action ? action.id : undefined, action.action === 'press_key' ? action.key : undefined);
  between?.();
  return send<{ message: string }>({ type: 'page/act', act: action, expect: { ...ref, target } });
}

beforeEach(() => {
  document.body.innerHTML = '';
});

test('a read writes nothing into the page', async () => {
  page('<button data-log="more">Show more</button><form aria-label="Close your account"><button data-log="delete">Delete account</button></form>');
  const before = document.documentElement.outerHTML;
  const snapshot = await read();
  expect(snapshot.elements.map((e) => e.name)).toEqual(['Show more', 'Delete account']);
  expect(snapshot.nonce).toMatch(/^[\w-]{16,}$/);
  expect(document.documentElement.outerHTML).toBe(before);
});

test('a page that writes id markers onto another element cannot redirect an action', async () => {
  page('<button data-log="more">Show more</button><button data-log="delete">Delete account</button>');
  const s = await read();
  const more = idOf(s, 'Show more');
  document.querySelectorAll('button')[1]!.setAttribute('data-foxagent-id', String(more));
  document.querySelectorAll('button')[0]!.setAttribute('data-foxagent-id', '999');
  await inspectThenAct(s, { action: 'click', id: more });
  expect(log).toEqual(['more']);
});

test('an element relabelled between inspection and action is not clicked', async () => {
  page('<button data-log="more">Show more</button>');
  const s = await read();
  await expect(inspectThenAct(s, { action: 'click', id: idOf(s, 'Show more') }, () => (document.querySelector('button')!.textContent = 'Delete account'))).rejects.toThrow(
    /changed since you approved it.*read it again/i,
  );
  expect(log).toEqual([]);
});

test('an element moved into another form between inspection and action is not clicked', async () => {
  page('<div id="top"><button type="submit" data-log="more">Show more</button></div><form aria-label="Close your account" onsubmit="return false"></form>');
  const s = await read();
  const move = () => document.querySelector('form')!.append(document.querySelector('button')!);
  await expect(inspectThenAct(s, { action: 'click', id: idOf(s, 'Show more') }, move)).rejects.toThrow(/changed since you approved it/i);
  expect(log).toEqual([]);
});

test('ids are valid for the latest snapshot only', async () => {
  page('<button data-log="a">Alpha</button><button data-log="b">Beta</button>');
  const first = await read();
  document.body.insertAdjacentHTML('afterbegin', '<button>Gamma</button>');
  const second = await read();
  expect(second.nonce).not.toBe(first.nonce);
  await expect(inspect(first.nonce!, idOf(first, 'Alpha'))).rejects.toThrow(/read it again/i);
  // An inspection made with the old snapshot cannot be used either.
  const fresh = await inspect(second.nonce!, idOf(second, 'Alpha'));
  await expect(send({ type: 'page/act', act: { action: 'click', id: idOf(second, 'Alpha') }, expect: { ...fresh.ref, snapshot: first.nonce!, target: fresh.target } })).rejects.toThrow(/read it again/i);
  await inspectThenAct(second, { action: 'click', id: idOf(second, 'Alpha') });
  expect(log).toEqual(['a']);
});

test('another document (navigation, a rewritten page) or another origin is refused with a clear error', async () => {
  page('<button data-log="a">Alpha</button>');
  const s = await read();
  const { ref, target } = await inspect(s.nonce!, idOf(s, 'Alpha'));
  const click = { action: 'click' as const, id: idOf(s, 'Alpha') };
  await expect(send({ type: 'page/act', act: click, expect: { ...ref, doc: 'another-document', target } })).rejects.toThrow(/page was replaced.*read it again/i);
  await expect(send({ type: 'page/act', act: click, expect: { ...ref, origin: 'https://evil.example', target } })).rejects.toThrow(/read it again/i);
  // The page replaces its whole document (as document.open does): the old token is stale.
  const html = document.documentElement;
  document.replaceChild(document.createElement('html'), html);
  await expect(send({ type: 'page/act', act: click, expect: { ...ref, target } })).rejects.toThrow(/page was replaced.*read it again/i);
  document.replaceChild(html, document.documentElement);
  expect(log).toEqual([]);
});

test('ids inside an open shadow root still work', async () => {
  page('<div id="host"></div>');
  const root = document.getElementById('host')!.attachShadow({ mode: 'open' });
  root.innerHTML = '<button>Upgrade plan</button>';
  root.querySelector('button')!.addEventListener('click', () => log.push('upgrade'));
  const s = await read();
  await inspectThenAct(s, { action: 'click', id: idOf(s, 'Upgrade plan') });
  expect(log).toEqual(['upgrade']);
});

test('the target says which form it belongs to or sends: ancestor, form attribute, a scripted button beside a filled password form', async () => {
  page(`<h2>Sign in</h2><form id="login"><label>Email <input id="email" type="email"></label><label>Password <input id="pw" type="password"></label></form>
        <button form="login" data-log="x">Log in</button>
        <span role="button" tabindex="0" onclick="1">Continue</span>
        <form aria-label="Newsletter"><label>Topic <input id="topic"></label></form>`);
  const s = await read();
  const target = async (name: string, key?: string) => (await inspect(s.nonce!, idOf(s, name), key)).target!;
  expect(await target('Email')).toMatchObject({ role: 'textbox', name: 'Email', formName: 'Sign in', formHasPassword: true, formVia: 'ancestor' });
  expect(await target('Email', 'Enter')).toMatchObject({ submitsForm: true, formHasPassword: true });
  expect(await target('Log in')).toMatchObject({ submitsForm: true, formName: 'Sign in', formHasPassword: true, formVia: 'attribute' });
  expect(await target('Topic', 'Enter')).toMatchObject({ formName: 'Newsletter', formHasPassword: false, submitsForm: true });
  // Outside every form: no form, until a password is typed; then it may be sent by script.
  expect((await target('Continue')).formName).toBeUndefined();
  (document.getElementById('pw') as HTMLInputElement).value = 'secret';
  expect(await target('Continue')).toMatchObject({ formName: 'Sign in', formHasPassword: true, formVia: 'script' });
});

test('press_key without an id acts on the focused element the gate inspected, and not on another', async () => {
  page('<form aria-label="Search"><input aria-label="Query"></form><form aria-label="Sign in"><input aria-label="Password" type="password"></form>');
  const s = await read();
  (document.querySelector('input[aria-label="Query"]') as HTMLInputElement).focus();
  const { ref, target } = await inspect(s.nonce!, undefined, 'Enter');
  expect(target).toMatchObject({ name: 'Query', formName: 'Search', submitsForm: true });
  (document.querySelector('input[type="password"]') as HTMLInputElement).focus();
  await expect(send({ type: 'page/act', act: { action: 'press_key', key: 'Enter' }, expect: { ...ref, target } })).rejects.toThrow(/changed since you approved it/i);
});

test('scrolling with no id is not about the focused element', async () => {
  page('<input aria-label="Query"><button>Top</button>');
  const s = await read();
  (document.querySelector('input') as HTMLInputElement).focus();
  window.scrollTo = () => undefined;
  const { ref, target } = await inspect(s.nonce!);
  expect(target).toBeUndefined();
  await expect(send({ type: 'page/act', act: { action: 'scroll', direction: 'down' }, expect: { ...ref, target } })).resolves.toMatchObject({ message: expect.stringMatching(/Scrolled down/) });
});
