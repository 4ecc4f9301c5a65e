/** A tool call's arguments in one short line (the model's stated reason is shown apart). */
export function summarizeArgs(args: Record<string, unknown>, max = 80): string {
  return Object.entries(args)
    .filter(([k]) => k !== 'reason')
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(' ')
    .slice(0, max);
}
