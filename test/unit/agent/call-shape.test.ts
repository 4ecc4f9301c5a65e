/** A tool's parameters in one short line, as a repair turn shows them; bounded whatever the schema. */
import { shapeOf } from '../../../src/background/agent/call-shape';

test('required and optional parameters, enums, unions and arrays', () => {
  const spec = {
    name: 'scroll',
    description: '',
    parameters: {
      type: 'object',
      properties: {
        direction: { type: 'string', enum: ['up', 'down', 'top', 'bottom'] },
        id: { anyOf: [{ type: 'integer' }, { type: 'string' }] },
        tags: { type: 'array', items: { type: 'string' } },
        note: { type: ['string', 'null'] },
        anything: {},
      },
      required: ['direction'],
    },
  };
  expect(shapeOf(spec)).toBe('scroll(direction: "up" | "down" | "top" | "bottom", id?: integer | string, tags?: array of string, note?: string, anything?: any)');
  expect(shapeOf({ name: 'read_page', description: '', parameters: { type: 'object', properties: {} } })).toBe('read_page()');
});

test('a huge schema (an outside tool\'s) is cut: at most 12 parameters, 6 enum values and 400 characters', () => {
  const properties = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`p${i}`, { type: 'string', enum: Array.from({ length: 50 }, (_, j) => `value-${j}`) }]));
  const shape = shapeOf({ name: 'big', description: '', parameters: { type: 'object', properties, required: ['nope', 7] } });
  expect(shape.length).toBeLessThanOrEqual(400);
  expect(shape.startsWith('big(p0?: "value-0" | "value-1" | "value-2" | "value-3" | "value-4" | "value-5" | …, p1?:')).toBe(true);
  expect(shape.endsWith('…')).toBe(true);
  const few = shapeOf({ name: 'few', description: '', parameters: { type: 'object', properties: Object.fromEntries(Array.from({ length: 13 }, (_, i) => [`a${i}`, { type: 'number' }])) } });
  expect(few).toBe(`few(${Array.from({ length: 12 }, (_, i) => `a${i}?: number`).join(', ')}, …)`);
});
