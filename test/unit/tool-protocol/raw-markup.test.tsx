/**
 * @jest-environment jsdom
 *
 * A call read from the model's text keeps the markup it was written as (the turn recorder stores
 * it, see quoted-calls.test.ts), and the tool row shows it in its details, as text, never as HTML.
 */
import { fireEvent, render } from '@testing-library/react';
import type { ToolMessage } from '../../../src/shared/conversation';
import { ToolRow } from '../../../src/sidebar/components/ToolRow';

const RAW = '<click id="3" reason="<img src=x onerror=&quot;window.__pwned=1&quot;>" />';

const toolMessage = (over: Partial<ToolMessage> = {}): ToolMessage => ({
  id: 'tool_1',
  role: 'tool',
  createdAt: 1,
  toolCallId: 'call_1',
  name: 'click',
  arguments: { id: '3' },
  status: 'done',
  content: 'Clicked [3].',
  ...over,
});

test('the tool row shows the raw markup on demand, as the characters the model wrote', () => {
  const { container, getByRole, queryByTestId } = render(<ToolRow message={toolMessage({ raw: RAW })} />);
  expect(queryByTestId('tool-raw')).toBeNull();
  fireEvent.click(getByRole('button'));
  expect(queryByTestId('tool-raw')?.querySelector('pre')?.textContent).toBe(RAW);
  expect(container.querySelector('img')).toBeNull();
  expect((window as unknown as { __pwned?: number }).__pwned).toBeUndefined();
});

test('a native call has no markup to show', () => {
  const { getByRole, queryByTestId } = render(<ToolRow message={toolMessage()} />);
  fireEvent.click(getByRole('button'));
  expect(queryByTestId('tool-raw')).toBeNull();
});

test('markup that holds a secret value is not shown', () => {
  const raw = '<fill id="4" text="hunter2" />';
  const { container, getByRole, queryByTestId } = render(<ToolRow message={toolMessage({ name: 'fill', arguments: { id: '4', text: 'hunter2' }, masked: ['text'], raw })} />);
  fireEvent.click(getByRole('button'));
  expect(queryByTestId('tool-raw')).not.toBeNull();
  expect(container.textContent).not.toContain('hunter2');
});
