/** @jest-environment jsdom */
import { render } from '@testing-library/react';
import { Markdown } from '../../../src/sidebar/components/Markdown';
import { markdownWork, parseInline, parseMarkdown } from '../../../src/sidebar/lib/markdown';



test('headings, lists, tables, code and inline styles render as elements', () => {
  const source = ['# Title', '', 'Some **bold**, *em* and `code`.', '', '- one', '- two', '', '1. first', '2. second', '', '| a | b |', '|---|--:|', '| 1 | 2 |', '', '```js', 'let x = 1 < 2;', '```', '', '> quoted'].join('\n');
  const { container } = render(<Markdown source={source} />);
  expect(container.querySelector('h2')?.textContent).toBe('Title');
  expect(container.querySelector('strong')?.textContent).toBe('bold');
  expect(container.querySelector('em')?.textContent).toBe('em');
  expect(container.querySelectorAll('ul > li')).toHaveLength(2);
  expect(container.querySelectorAll('ol > li')).toHaveLength(2);
  expect(container.querySelector('td:last-child')?.getAttribute('style')).toMatch(/right/);
  expect(container.querySelector('pre code')?.textContent).toBe('let x = 1 < 2;');
  expect(container.querySelector('blockquote')?.textContent).toBe('quoted');
});

const HOSTILE = [
  '<img src=x onerror="window.__pwned=1">',
  '<script>window.__pwned=1</script>',
  '[click me](javascript:window.__pwned=1)',
  '[data](data:text/html,<script>window.__pwned=1</script>)',
  '<iframe src="https://evil.example"></iframe>',
  '<a href="javascript:alert(1)">x</a>',
  '**<b onmouseover="window.__pwned=1">bold</b>**',
  '| <svg onload="window.__pwned=1"> | x |\n|---|---|\n| <style>*{display:none}</style> | y |',
  '```\n</code></pre><img src=x onerror=alert(1)>\n```',
];

test.each(HOSTILE)('hostile payload %j stays text: no element, no handler, no script link', (payload) => {
  const { container } = render(<Markdown source={payload} />);
  expect(container.querySelector('img, script, iframe, svg, style, b')).toBeNull();
  for (const el of Array.from(container.querySelectorAll('*'))) {
    for (const attr of Array.from(el.attributes)) expect(attr.name).not.toMatch(/^on/i);
  }
  for (const a of Array.from(container.querySelectorAll('a'))) expect(a.getAttribute('href')).toMatch(/^(https?:|mailto:)/);
  expect((window as unknown as { __pwned?: number }).__pwned).toBeUndefined();
});

test('markup written in an answer is shown literally, as the characters the model wrote', () => {
  const { container } = render(<Markdown source={'Use <script>alert(1)</script> carefully'} />);
  expect(container.textContent).toBe('Use <script>alert(1)</script> carefully');
});

test('a link with a forbidden scheme keeps its label as plain text', () => {
  const { container } = render(<Markdown source={'[open me](javascript:alert(1))'} />);
  expect(container.querySelector('a')).toBeNull();
  expect(container.textContent).toContain('open me');
});

test('links open outside, without referrer, and only for web or mail addresses', () => {
  const { container } = render(<Markdown source={'See [docs](https://example.com/docs) or https://example.org.'} />);
  const links = Array.from(container.querySelectorAll('a'));
  expect(links.map((a) => a.getAttribute('href'))).toEqual(['https://example.com/docs', 'https://example.org']);
  expect(links[0]!.getAttribute('rel')).toContain('noopener');
});

test('a link that opens the text, as in a table cell, is a link', () => {
  const { container } = render(<Markdown source={'[docs](https://example.com/docs) first\n\n| Source | x |\n|---|---|\n| [Shop](https://shop.example/) | 1 |'} />);
  expect(Array.from(container.querySelectorAll('a')).map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
    ['docs', 'https://example.com/docs'],
    ['Shop', 'https://shop.example/'],
  ]);
});

test('a link may carry a title after its address; a space in the address makes it no link', () => {
  const { container } = render(<Markdown source={'[a](https://example.com/a "The A page") and [b](https://example.com/ b)'} />);
  expect(Array.from(container.querySelectorAll('a')).map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
    ['a', 'https://example.com/a'],
    ['https://example.com/', 'https://example.com/'],
  ]);
});

test('an escaped ] in a link label is part of the label, not its end', () => {
  const { container } = render(<Markdown source={'[a \\] b \\[c\\](javascript:x) d](https://example.com/) and [e\\\\](https://example.org/)'} />);
  expect(Array.from(container.querySelectorAll('a')).map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
    ['a ] b [c](javascript:x) d', 'https://example.com/'],
    ['e\\', 'https://example.org/'],
  ]);
});

test('foxagent:tab/<id> is a tab link; any other foxagent: address, or a tab link with more after it, is text', () => {
  const nodes = parseInline('[Shop A](foxagent:tab/11) [x](foxagent:settings) [y](foxagent:tab/1/z) [z](FOXAGENT:tab/2)');
  expect(nodes.filter((n) => n.type !== 'text')).toEqual([{ type: 'tab', tabId: 11, children: [{ type: 'text', text: 'Shop A' }] }]);
  expect(nodes.map((n) => (n.type === 'text' ? n.text : '')).join('')).toBe(' x y z');
});

test('a code fence still streaming (no closing fence yet) is shown as code', () => {
  expect(parseMarkdown('Here:\n```python\nprint(1)')).toEqual([
    { type: 'paragraph', children: [{ type: 'text', text: 'Here:' }] },
    { type: 'code', lang: 'python', text: 'print(1)' },
  ]);
});

describe('a streaming answer', () => {
  const SECTIONS = Array.from({ length: 60 }, (_, i) => [`## Part ${i}`, '', `Some **text** for part ${i}, with \`code\` and a [link](https://example.com/${i}).`, '', '- one\n- two', '', '```js\nlet x = 1;\n\nlet y = 2;\n```', ''].join('\n')).join('\n');

  const streamInto = (source: string, step: number) => {
    const view = render(<Markdown source={source.slice(0, step)} streaming />);
    for (let end = 2 * step; end < source.length + step; end += step) view.rerender(<Markdown source={source.slice(0, end)} streaming />);
    return view;
  };

  test('finished blocks are parsed once: the work stays proportional to the answer', () => {
    const before = markdownWork.chars;
    streamInto(SECTIONS, 40);
    const parsed = markdownWork.chars - before;
    // Parsing the whole answer on every chunk would read it (length / 40) / 2 times over.
    expect(parsed).toBeLessThan(3 * SECTIONS.length);
  });

  test('shows the same as the finished answer, code blocks with blank lines included', () => {
    const streamed = streamInto(SECTIONS, 37).container.innerHTML;
    const whole = render(<Markdown source={SECTIONS} />).container.innerHTML;
    expect(streamed).toBe(whole);
  });

  test('a long paragraph still being written is parsed at growing steps, nothing of it hidden meanwhile', () => {
    const long = 'word [link](https://example.com) **bold** '.repeat(700);
    const before = markdownWork.chars;
    const view = streamInto(long, 256);
    // Parsing it whole on every chunk would read it about 60 times over.
    expect(markdownWork.chars - before).toBeLessThan(12 * long.length);
    // What arrived since the last parse shows as plain text at the end.
    expect(view.container.textContent!.trimEnd().endsWith(long.trimEnd().slice(-200))).toBe(true);
    view.rerender(<Markdown source={long} />);
    expect(view.container.innerHTML).toBe(render(<Markdown source={long} />).container.innerHTML);
  });
});
