import type { PlanRecord } from '../../src/shared/plan';

/** Reads the plan's record until it is as wanted (polling every 20 ms, for up to 6 s). */
export async function until(read: () => Promise<PlanRecord | undefined>, done: (r: PlanRecord) => boolean): Promise<PlanRecord> {
  for (let i = 0; i < 300; i++) {
    const record = await read();
    if (record && done(record)) return record;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('the plan did not get there in time');
}
