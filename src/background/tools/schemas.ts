import { z } from 'zod';

/** Models write booleans as true, "true", "yes", 1…; `z.coerce.boolean` would read "false" as true. */
export const looseBoolean = z.preprocess((value) => {
  if (typeof value === 'string') {
    const v = value.trim().toLowerCase();
    if (['true', 'yes', '1', 'on', 'checked'].includes(v)) return true;
    if (['false', 'no', '0', 'off', 'unchecked'].includes(v)) return false;
  }
  if (value === 1 || value === 0) return value === 1;
  return value;
}, z.boolean());

/** An element id as the snapshot shows it: 12, "12" or "[12]". */
export const elementId = z.preprocess(
  (value) => (typeof value === 'string' ? Number(value.replace(/[[\]\s#]/g, '')) : value),
  z.number().int().positive(),
).describe('The [id] of the element in the latest page snapshot.');
