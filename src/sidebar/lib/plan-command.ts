/** `/plan <request>` in the composer: the request without the prefix, asked as a workflow plan. */
const PLAN_PREFIX = /^\/plan(?:\s+|$)/i;

/** The message to send and whether it asks for a plan: `/plan` stripped, or the Plan toggle pressed. */
export function planRequest(text: string, toggled: boolean): { text: string; plan: boolean } {
  const prefixed = PLAN_PREFIX.exec(text);
  if (!prefixed) return { text, plan: toggled };
  return { text: text.slice(prefixed[0].length).trim(), plan: true };
}
