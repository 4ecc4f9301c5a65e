/** @jest-environment jsdom */
/** How much text a page shows, for telling a page the reader cannot describe: visible text only, spaces left out, counted up to a cap. */
import { TEXT_COUNT_CAP, visibleTextChars } from '../../../src/content/vision/look';

test('scripts, styles and hidden parts are not text a person sees; spaces do not count', () => {
  document.body.innerHTML = '<p>Add  to\ncart</p><script>var x = "not text";</script><style>p { color: red }</style><div hidden>Secret words</div><div style="display:none">More hidden</div><noscript>Enable JS</noscript>';
  expect(visibleTextChars(document)).toBe('Addtocart'.length);
});

test('a long page stops counting at the cap', () => {
  document.body.innerHTML = '<p>word </p>'.repeat(5000);
  expect(visibleTextChars(document)).toBe(TEXT_COUNT_CAP);
  document.body.innerHTML = '<canvas></canvas>';
  expect(visibleTextChars(document)).toBe(0);
});
