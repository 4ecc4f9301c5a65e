import { z } from 'zod';
import { CONTROL_TOOLS } from '../../../src/background/tools/control';
import { defineTool, ToolRegistry } from '../../../src/background/tools/registry';
import { elementId, looseBoolean } from '../../../src/background/tools/schemas';

const fill = defineTool({
  name: 'fill',
  description: 'Type text',
  input: z.object({ id: elementId, text: z.string(), submit: looseBoolean.optional() }),
  risk: 'interact',
  timeoutMs: 1000,
  run: async ({ id, text }) => ({ ok: true, content: `${id}:${text}` }),
});
const registry = new ToolRegistry([fill, ...CONTROL_TOOLS]);

test('JSON Schema for native calls comes from the zod schema', () => {
  const spec = registry.specs().find((s) => s.name === 'fill')!;
  expect(spec.parameters).toMatchObject({ type: 'object', required: ['id', 'text'] });
  expect(Object.keys((spec.parameters as { properties: object }).properties)).toEqual(['id', 'text', 'submit']);
});

test('arguments as small models write them are accepted: "[12]", "false"', () => {
  const checked = registry.validate({ id: '1', name: 'fill', arguments: { id: '[12]', text: 'hi', submit: 'false' } });
  expect(checked).toMatchObject({ ok: true, args: { id: 12, text: 'hi', submit: false } });
});

test('invalid arguments come back as a message the model can act on', () => {
  const checked = registry.validate({ id: '1', name: 'fill', arguments: { id: 'the email box' } });
  expect(checked.ok).toBe(false);
  if (!checked.ok) {
    expect(checked.error).toMatch(/Invalid arguments for fill/);
    expect(checked.error).toMatch(/text/);
  }
});

test('an unknown tool lists the ones that exist', () => {
  const checked = registry.validate({ id: '1', name: 'tap', arguments: {} });
  expect(checked).toEqual({ ok: false, error: expect.stringMatching(/no tool named "tap".*fill, done, ask_user/) });
});

test('two tools with one name are refused', () => {
  expect(() => new ToolRegistry([fill, fill])).toThrow(/Two tools are named fill/);
});
