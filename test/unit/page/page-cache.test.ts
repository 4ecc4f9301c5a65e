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
  cache.put(entry(1, 'https://a.example/', 5));
  cache.invalidateTab(1);
  expect(cache.fresh(1, 'https://a.example/', '{}', 5)).toBeUndefined();
  expect(cache.recall('https://a.example/')?.rendered).toBe('page https://a.example/');
});

test('the cache is bounded: the oldest entries roll off', () => {
  const cache = new PageCache(3);
  for (let i = 0; i < 5; i++) cache.put(entry(i, `https://p${i}.example/`, 0, i));
  expect(cache.urls()).toEqual(['https://p2.example/', 'https://p3.example/', 'https://p4.example/']);
});
