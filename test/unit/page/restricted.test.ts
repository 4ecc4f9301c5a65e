import { restrictionOf } from '../../../src/background/page/restricted';

test.each([
  'about:addons',
  'about:reader?url=https://example.com',
  'view-source:https://example.com',
  'https://addons.mozilla.org/en-US/firefox/',
  'moz-extension://abc/sidebar.html',
  'https://example.com/report.pdf',
  'data:text/html,hi',
  undefined,
])('%s cannot be acted on, and says why', (url) => {
  expect(restrictionOf(url)).toMatch(/cannot|does not let|no page/);
});

test.each(['https://example.com/', 'http://127.0.0.1:8080/form.html', 'file:///home/me/page.html'])('%s is a normal page', (url) => {
  expect(restrictionOf(url)).toBeUndefined();
});
