import { newId } from '../../shared/conversation';
import type { BgToUiEvent, Decision, PermissionRequest } from '../../shared/protocol';

type Answer = Decision | 'timeout' | 'stopped';

/**
 * Asks the user about one action and waits. Pending requests live here, in the background, so a
 * sidebar that is closed and reopened finds the question still waiting. No answer in time is a
 * denial.
 */
export class PermissionPrompter {
  private readonly pending = new Map<string, { request: PermissionRequest; settle(answer: Answer): void }>();

  constructor(
    private readonly emit: (event: BgToUiEvent) => void,
    private readonly timeoutMs = 120_000,
  ) {}

  ask(request: Omit<PermissionRequest, 'id'>, signal: AbortSignal): Promise<Answer> {
    const full: PermissionRequest = { ...request, id: newId('perm') };
    return new Promise<Answer>((resolve) => {
      const timer = setTimeout(() => settle('timeout'), this.timeoutMs);
      const onAbort = () => settle('stopped');
      const settle = (answer: Answer) => {
        if (!this.pending.delete(full.id)) return;
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        this.emit({ type: 'permission/resolved', id: full.id });
        resolve(answer);
      };
      this.pending.set(full.id, { request: full, settle });
      signal.addEventListener('abort', onAbort, { once: true });
      this.emit({ type: 'permission/requested', request: full });
      if (signal.aborted) settle('stopped');
    });
  }

  answer(id: string, decision: Decision): boolean {
    const entry = this.pending.get(id);
    entry?.settle(decision);
    return Boolean(entry);
  }

  list(): PermissionRequest[] {
    return [...this.pending.values()].map((p) => p.request);
  }
}
