import { create } from 'zustand';
import type { Plan, PlanRecord } from '../../shared/plan';
import type { BgToUiEvent } from '../../shared/protocol';
import { backgroundPort, type BackgroundPort } from '../../ui/port';

/** What the plan card may ask of the background; each answers with the plan's record as it is afterwards. */
export type PlanCommand =
  | { type: 'plan/run'; planId: string; plan?: Plan }
  | { type: 'plan/cancel'; planId: string }
  | { type: 'plan/stop'; planId: string }
  | { type: 'plan/retry-step'; planId: string; stepId: string }
  | { type: 'plan/resume'; planId: string };

export interface PlansState {
  /** Every plan the sidebar has heard of, by id: listed for the open chat, then kept by `plan/updated`. */
  byId: Record<string, PlanRecord>;
  /** Why the last command on a plan was refused (an edited plan's validation problems, a plan that cannot run again). */
  failures: Record<string, string>;
  load(conversationId: string): Promise<void>;
  /** Sends a command; false when the background refused it (the reason is in `failures`). */
  command(command: PlanCommand): Promise<boolean>;
  apply(event: BgToUiEvent): void;
}

/** The newer of two copies of a record: an event and a reply may arrive in either order. */
function newer(known: PlanRecord | undefined, next: PlanRecord): PlanRecord {
  return known && known.updatedAt > next.updatedAt ? known : next;
}

export function createPlansStore(port: BackgroundPort = backgroundPort) {
  return create<PlansState>((set, get) => {
    const keep = (record: PlanRecord) => set({ byId: { ...get().byId, [record.id]: newer(get().byId[record.id], record) } });
    const fail = (planId: string, reason: string | undefined) => {
      const { [planId]: _dropped, ...rest } = get().failures;
      set({ failures: reason === undefined ? rest : { ...rest, [planId]: reason } });
    };
    return {
      byId: {},
      failures: {},

      async load(conversationId) {
        const records = await port.request({ type: 'plan/list', conversationId });
        for (const record of records) keep(record);
      },

      async command(command) {
        try {
          keep(await port.request(command));
          fail(command.planId, undefined);
          return true;
        } catch (error) {
          fail(command.planId, error instanceof Error ? error.message : String(error));
          return false;
        }
      },

      apply(event) {
        if (event.type === 'plan/updated') keep(event.plan);
      },
    };
  });
}

export const usePlans = createPlansStore();
