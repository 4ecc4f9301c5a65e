import { z } from 'zod';

/** How workflow plans run. */
export const PlanSettingsSchema = z.object({
  /** Plans that only read run without the approval card. */
  runReadOnlyWithoutAsking: z.boolean().default(false),
  /** Keep the tabs a plan opened when it ends (otherwise they are closed). */
  keepOpenedTabs: z.boolean().default(false),
  /** Steps that may run at the same time. */
  concurrency: z.number().int().min(1).max(5).default(3),
});
export type PlanSettings = z.infer<typeof PlanSettingsSchema>;
