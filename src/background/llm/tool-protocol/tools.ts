/**
 * The tools a reply may call, as the parser sees them: a name, and where the request gave one, the
 * JSON Schema of the arguments. Names alone work too (every value then keeps the type its markup
 * gave it).
 */

/** The part of JSON Schema that shapes arguments: types, properties, items, and unions of them. */
export interface JsonSchema {
  type?: string | readonly string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: readonly JsonSchema[];
  oneOf?: readonly JsonSchema[];
  enum?: readonly unknown[];
  [keyword: string]: unknown;
}

/** A tool offered to the model: its name, or its name and argument schema. */
export type ToolInput = string | { readonly name: string; readonly parameters?: JsonSchema | Record<string, unknown> };

export interface ToolTable {
  /** The offered tool a name as the model wrote it refers to, if any. */
  resolve(raw: string): string | undefined;
  /** The argument schema of an offered tool, if the request gave one. */
  schemaOf(name: string): JsonSchema | undefined;
}

/** Whether a tool's schema names arguments it requires: a call to it that the reply ended before any arguments is cut off. */
export function requiresArguments(schema: JsonSchema | undefined): boolean {
  return Array.isArray(schema?.required) && schema.required.length > 0;
}

/** Tool names are matched case-insensitively, with `-` for `_`, and without a `functions.` or `tools.` prefix or a `.call` suffix. */
export function nameKey(name: string): string {
  return name.toLowerCase().replace(/-/g, '_');
}

export function toolNameOf(tool: ToolInput): string {
  return typeof tool === 'string' ? tool : tool.name;
}

/** A name's letters and digits, lower-cased: how `WebFetch` and `web_fetch` are the same name. */
const lettersKey = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');

export function createToolTable(tools: readonly ToolInput[]): ToolTable {
  const byKey = new Map<string, string>();
  /** Names by their letters and digits alone (`WebFetch`, `webFetch` for `web_fetch`), where no two tools share them. */
  const byLetters = new Map<string, string | undefined>();
  const exact = new Set<string>();
  const schemas = new Map<string, JsonSchema>();
  for (const tool of tools) {
    const name = toolNameOf(tool);
    exact.add(name);
    byKey.set(nameKey(name), name);
    const letters = lettersKey(name);
    byLetters.set(letters, byLetters.has(letters) ? undefined : name);
    if (typeof tool !== 'string' && tool.parameters) schemas.set(name, tool.parameters as JsonSchema);
  }
  return {
    resolve: (raw) => {
      // A special token the model let run into the name (`read<|message|>`, Muse Glimmer) is no part of it.
      const written = raw.trim().replace(/(?:<\|[\w:-]{1,40}\|>)+$/, '');
      // A name written exactly as offered is that tool, even where another differs from it only by case or `-`/`_`.
      if (exact.has(written)) return written;
      // Llama 3.1's built-in tools are called as `brave_search.call(…)`.
      const bare = written.replace(/^(functions?|tools?|default_api)[.:]/i, '').replace(/\.call$/, '');
      if (exact.has(bare)) return bare;
      // A server's tool written with a dot where its name has `__` (`github.create_issue` for `github__create_issue`).
      return byKey.get(nameKey(bare)) ?? (bare.includes('.') ? byKey.get(nameKey(bare.replace(/\./g, '__'))) : undefined) ?? byLetters.get(lettersKey(bare));
    },
    schemaOf: (name) => schemas.get(name),
  };
}
