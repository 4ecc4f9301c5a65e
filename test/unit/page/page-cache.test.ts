import { PageCache, type CachedPage } from '../../../src/background/page/page-cache';

const entry = (tabId: number, url: string, mutations: number, readAt = 1): CachedPage => ({
  tabId,
  url,
  mutations,
  optionsKey: '{}',
  readAt,
  rendered: `page ${url}`,
  snapshot: { url, title: url } as CachedPage['snapshot'],
});

test('an unchanged page is served from the cache; a changed one is not', () => {
  const cache = new PageCache();
  cache.put(entry(1, 'https://a.example/', 5));
  expect(cache.fresh(1, 'https://a.example/', '{}', 5)?.rendered).toBe('page https://a.example/');
  expect(cache.fresh(1, 'https://a.example/', '{}', 6)).toBeUndefined();
  expect(cache.fresh(1, 'https://a.example/', '{"offset":100}', 5)).toBeUndefined();
});

test('navigation invalidates the tab but the page stays recallable', () => {
  const cache = new PageCache();
  cache.put(entry(1, 'https://a.example/', 5), 'conv-a');
  cache.invalidateTab(1);
  expect(cache.fresh(1, 'https://a.example/', '{}', 5)).toBeUndefined();
  expect(cache.recall('https://a.example/#top', 'conv-a')?.rendered).toBe('page https://a.example/');
});

test('the cache is bounded: the oldest entries roll off', () => {
  const cache = new PageCache(3);
  for (let i = 0; i < 5; i++) cache.put(entry(i, `https://p${i}.example/`, 0, i));
  expect(cache.urls()).toEqual(['https://p2.example/', 'https://p3.example/', 'https://p4.example/']);
});

describe('recall is scoped to the conversation that read the page', () => {
  test('a page read in one conversation cannot be recalled from another', () => {
    const cache = new PageCache();
    cache.put(entry(1, 'https://bank.example/statement?acct=1', 5), 'conv-a');
    expect(cache.recall('https://bank.example/statement?acct=1', 'conv-a')?.rendered).toBe('page https://bank.example/statement?acct=1');
    expect(cache.recall('https://bank.example/statement?acct=1', 'conv-b')).toBeUndefined();
  });

  test('a miss lists only the pages of the asking conversation', () => {
    const cache = new PageCache();
    cache.put(entry(1, 'https://secret.example/inbox', 1), 'conv-a');
    cache.put(entry(2, 'https://news.example/', 1), 'conv-b');
    expect(cache.urls('conv-b')).toEqual(['https://news.example/']);
    expect(cache.urls('conv-c')).toEqual([]);
  });

  test('a page read without a conversation is not recallable at all', () => {
    const cache = new PageCache();
    cache.put(entry(1, 'https://a.example/', 1));
    expect(cache.recall('https://a.example/', 'conv-a')).toBeUndefined();
  });

  test('a conversation that is forgotten takes its pages with it', () => {
    const cache = new PageCache();
    cache.put(entry(1, 'https://a.example/', 1), 'conv-a');
    cache.forget('conv-a');
    expect(cache.recall('https://a.example/', 'conv-a')).toBeUndefined();
  });
});
