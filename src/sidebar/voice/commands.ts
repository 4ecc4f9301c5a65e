/**
 * What a transcript does. "Stop" said alone stops the running task (no model call, no message).
 * Otherwise, with "send when I stop talking", it is sent as a spoken message and takes the same
 * path as typed text; without it, or while a task is still running, it lands in the composer to
 * be edited. Text the user typed is never replaced.
 */
import { isStopCommand } from './stop-command';

export interface TranscriptDeps {
  running(): boolean;
  /** Stops the open chat's running task (`runs/stop`). */
  stopTask(): Promise<void>;
  /** Sends it as a message started by voice; false when the background did not take it. */
  send(text: string): Promise<boolean>;
  draft(): string;
  setDraft(text: string): void;
}

export type TranscriptOutcome = 'stopped' | 'sent' | 'drafted' | 'ignored';

export async function deliverTranscript(transcript: string, sendOnStop: boolean, deps: TranscriptDeps): Promise<TranscriptOutcome> {
  const text = transcript.trim();
  if (!text) return 'ignored';
  if (isStopCommand(text)) {
    // Nothing running: a lone "stop" has nothing to do, and is no message either.
    if (!deps.running()) return 'ignored';
    await deps.stopTask();
    return 'stopped';
  }
  if (sendOnStop && !deps.running() && (await deps.send(text))) return 'sent';
  const typed = deps.draft().trimEnd();
  deps.setDraft(typed ? `${typed} ${text}` : text);
  return 'drafted';
}
