/** An in-memory stand-in for `browser.storage.local` with the same copy-on-write semantics. */
export class MemoryStorage {
  readonly data = new Map<string, unknown>();

  async get(key: string): Promise<Record<string, unknown>> {
    return this.data.has(key) ? { [key]: structuredClone(this.data.get(key)) } : {};
  }

  async set(items: Record<string, unknown>): Promise<void> {
    for (const [k, v] of Object.entries(items)) this.data.set(k, structuredClone(v));
  }

  async remove(key: string): Promise<void> {
    this.data.delete(key);
  }
}
