/** A call's identity for repeat detection: tool name and arguments, key order ignored. */
export function signatureOf(name: string, args: Record<string, unknown>): string {
  return `${name}(${stableJson(args)})`;
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * Remembers the last few calls so an identical call made again right away is answered from
 * memory instead of acting twice (small models often repeat a click they already made).
 */
export class DedupWindow {
  private readonly recent: { signature: string; result: string }[] = [];

  constructor(private readonly size: number) {}

  find(signature: string): string | undefined {
    return this.recent.find((r) => r.signature === signature)?.result;
  }

  remember(signature: string, result: string): void {
    this.recent.push({ signature, result });
    if (this.recent.length > this.size) this.recent.shift();
  }

  /** A call that changes the page makes earlier reads stale: forget them. */
  clear(): void {
    this.recent.length = 0;
  }
}

/**
 * Spots an agent going round in circles: the same block of 1–3 calls three times in a row
 * (A A A, A B A B A B, A B C A B C A B C).
 */
export class RepeatGuard {
  private readonly history: string[] = [];

  constructor(private readonly repeats = 3, private readonly maxPeriod = 3) {}

  /** Records a call; returns the repeating block when the agent is stuck. */
  record(signature: string): string[] | undefined {
    this.history.push(signature);
    for (let period = 1; period <= this.maxPeriod; period++) {
      const span = period * this.repeats;
      if (this.history.length < span) break;
      const tail = this.history.slice(-span);
      const block = tail.slice(0, period);
      if (tail.every((s, i) => s === block[i % period])) return block;
    }
    return undefined;
  }
}
