/**
 * A tool's parameters in one short line, `fill(id: integer, text: string, reason?: string)`: what
 * a repair turn shows a model of the call it got wrong, instead of the whole schema again.
 */
import type { ToolSpec } from '../llm/types';

const MAX_PARAMS = 12;
const MAX_ENUM = 6;
const MAX_CHARS = 400;

interface Property {
  type?: unknown;
  enum?: unknown;
  items?: unknown;
  anyOf?: unknown;
}

export function shapeOf(spec: ToolSpec): string {
  const properties = isObject(spec.parameters.properties) ? spec.parameters.properties : {};
  const required = new Set(Array.isArray(spec.parameters.required) ? spec.parameters.required.filter((r): r is string => typeof r === 'string') : []);
  const entries = Object.entries(properties);
  const params = entries.slice(0, MAX_PARAMS).map(([name, p]) => `${name}${required.has(name) ? '' : '?'}: ${typeName(isObject(p) ? p : {})}`);
  if (entries.length > MAX_PARAMS) params.push('…');
  const line = `${spec.name}(${params.join(', ')})`;
  return line.length > MAX_CHARS ? `${line.slice(0, MAX_CHARS - 1)}…` : line;
}

function typeName(p: Property, depth = 0): string {
  if (Array.isArray(p.enum)) {
    const shown = p.enum.slice(0, MAX_ENUM).map((v) => JSON.stringify(v));
    return [...shown, ...(p.enum.length > MAX_ENUM ? ['…'] : [])].join(' | ');
  }
  if (Array.isArray(p.anyOf) && depth < 2) return p.anyOf.slice(0, 4).map((alt) => typeName(isObject(alt) ? alt : {}, depth + 1)).join(' | ');
  const type = Array.isArray(p.type) ? p.type.filter((t) => t !== 'null').join(' | ') : typeof p.type === 'string' ? p.type : 'any';
  if (type === 'array' && isObject(p.items) && depth < 2) return `array of ${typeName(p.items, depth + 1)}`;
  return type;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
