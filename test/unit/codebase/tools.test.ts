/**
 * Every built-in tool is complete: a name models can write, a description, a risk tier, a
 * timeout, and an object schema that gives the same parameters to native mode (JSON Schema) and
 * to text mode (the catalogue).
 */
import { formatToolCatalogue } from '../../../src/background/llm/tool-protocol/xml-prompt';
import { createToolRegistry, type ToolDeps } from '../../../src/background/tools';

// The factories only keep their dependencies for when a tool runs; no tool runs here.
const unused = new Proxy({}, { get: () => () => Promise.reject(new Error('not used in this test')) });
const registry = createToolRegistry({ agent: unused, reader: unused, tabs: unused } as unknown as ToolDeps);
const tools = registry.all();
const specs = registry.specs();

test('the agent has its reading, acting, tab and control tools', () => {
  expect(tools.map((t) => t.name).sort()).toEqual(
    ['ask_user', 'click', 'close_tab', 'done', 'fill', 'go_back', 'go_forward', 'hover', 'hover_at', 'list_tabs', 'look', 'click_at', 'type_at', 'navigate', 'open_tab', 'press_key', 'read_page', 'recall_page', 'reload', 'scroll', 'select_option', 'set_checked', 'submit_form', 'switch_tab', 'wait_for'].sort(),
  );
});

test.each(tools.map((t) => [t.name, t] as const))('%s is complete', (name, tool) => {
  expect(name).toMatch(/^[a-z][a-z_]*[a-z]$/);
  expect(tool.description.length).toBeGreaterThan(20);
  expect(['read', 'interact', 'navigate', 'sensitive']).toContain(tool.risk);
  expect(tool.timeoutMs).toBeGreaterThan(0);
  expect(tool.timeoutMs).toBeLessThanOrEqual(60_000);
  const spec = specs.find((s) => s.name === name)!;
  expect(spec.parameters).toMatchObject({ type: 'object' });
  for (const [param, schema] of Object.entries((spec.parameters as { properties?: Record<string, { type?: unknown; anyOf?: unknown }> }).properties ?? {})) {
    expect({ param, typed: Boolean(schema.type ?? schema.anyOf) }).toEqual({ param, typed: true });
  }
});

test('reading never changes the page, and submitting a form is sensitive', () => {
  const risk = Object.fromEntries(tools.map((t) => [t.name, t.risk]));
  // A screenshot reads the page; acting by mark or point interacts like acting by id.
  expect([risk.look, risk.click_at, risk.type_at, risk.hover_at]).toEqual(['read', 'interact', 'interact', 'interact']);
  expect([risk.read_page, risk.list_tabs, risk.recall_page, risk.wait_for]).toEqual(['read', 'read', 'read', 'read']);
  expect(risk.submit_form).toBe('sensitive');
  expect([risk.navigate, risk.open_tab, risk.close_tab]).toEqual(['navigate', 'navigate', 'navigate']);
});

test('navigation and waits get longer timeouts than a click', () => {
  const timeout = Object.fromEntries(tools.map((t) => [t.name, t.timeoutMs]));
  for (const slow of ['navigate', 'open_tab', 'go_back', 'wait_for']) expect(timeout[slow]).toBeGreaterThan(timeout.click!);
});

test('the text-mode catalogue lists every tool with an example call', () => {
  const catalogue = formatToolCatalogue(specs.map((s) => ({ name: s.name, description: s.description, parameters: s.parameters as Parameters<typeof formatToolCatalogue>[0][number]['parameters'] })));
  for (const { name } of specs) {
    expect(catalogue).toContain(`### ${name}`);
    expect(catalogue).toContain(`"name":"${name}"`);
  }
});
