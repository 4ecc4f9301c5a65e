/**
 * Runs: the unit of work. A sidebar turn, a workflow step, a voice command, a task from an outside
 * client or a replayed procedure is a run with an id, where it came from, its conversation, the
 * tabs it may act on, its permission scope, its abort signal, its budget and its event sink.
 * Everything that starts, stops or lists work goes through this registry.
 */
import type { TaskState } from '../tools/registry';

import type { RunInfo } from '../../shared/protocol';

export type RunOrigin = RunInfo['origin'];
export type { RunInfo };

export interface RunBudget {
  /** Agent steps the run may take. */
  steps?: number;
  /** How long the run may take, in milliseconds. */
  wallClockMs?: number;
}

export interface RunSpec<E = unknown> {
  origin: RunOrigin;
  conversationId: string;
  /** The tabs the run may act on; by default the tab it starts on and the tabs it opens. */
  tabs?: readonly number[];
  budget?: RunBudget;
  /** Where the run's events go (the conversation's recorder, a plan's step view…). */
  sink?: (event: E) => void;
  /**
   * Runs of one group (the steps of one plan) may share their conversation; any other run there
   * conflicts with them, and Stop in the chat stops them all.
   */
  group?: string;
}

export interface Run<E = unknown> extends Readonly<Required<Pick<RunSpec<E>, 'origin' | 'conversationId' | 'budget'>>> {
  readonly id: string;
  readonly group?: string;
  readonly tabs?: readonly number[];
  readonly startedAt: number;
  readonly signal: AbortSignal;
  /**
   * The run's permission scope: the tab it started on and the tabs it opened. The permission gate
   * keeps its per-task state (start origin, grants "for this task", refusals) on this object, so
   * each run — each step of a plan — has its own.
   */
  readonly scope: TaskState;
  readonly sink?: (event: E) => void;
}

/** A conversation works on one run at a time (or on the runs of one group: a plan's steps). */
export class RunConflict extends Error {
  constructor(readonly conversationId: string) {
    super('FoxAgent is still working on this chat. Stop it first.');
  }
}

export class RunRegistry {
  private readonly runs = new Map<string, { run: Run; controller: AbortController }>();
  private readonly listeners = new Set<(runs: RunInfo[]) => void>();
  private count = 0;

  constructor(
    private readonly now: () => number = Date.now,
    private readonly newId: () => string = () => `run-${Date.now().toString(36)}-${(++this.count).toString(36)}`,
  ) {}

  /** Registers a run; it holds its conversation until `close`. */
  open<E>(spec: RunSpec<E>): Run<E> {
    const conflicting = [...this.runs.values()].some((e) => e.run.conversationId === spec.conversationId && (spec.group === undefined || e.run.group !== spec.group));
    if (conflicting) throw new RunConflict(spec.conversationId);
    const controller = new AbortController();
    const id = this.newId();
    const run: Run<E> = {
      id,
      origin: spec.origin,
      conversationId: spec.conversationId,
      tabs: spec.tabs,
      ...(spec.group !== undefined ? { group: spec.group } : {}),
      budget: spec.budget ?? {},
      startedAt: this.now(),
      signal: controller.signal,
      scope: { runId: id, openedTabs: new Set(), ...(spec.tabs ? { allowedTabs: new Set(spec.tabs) } : {}) },
      sink: spec.sink,
    };
    this.runs.set(run.id, { run: run as Run, controller });
    this.changed();
    return run;
  }

  /** Opens a run and does `work` as it; the run leaves the registry when the work settles. */
  start<E>(spec: RunSpec<E>, work: (run: Run<E>) => Promise<void>): Run<E> {
    const run = this.open(spec);
    void work(run)
      .catch(() => undefined)
      .finally(() => this.close(run.id));
    return run;
  }

  close(id: string): void {
    if (this.runs.delete(id)) this.changed();
  }

  /** Stops a run: its signal aborts (the model request, the running tool, a waiting question). */
  stop(id: string): boolean {
    const entry = this.runs.get(id);
    entry?.controller.abort();
    return Boolean(entry);
  }

  /** Stops whatever runs in this conversation. */
  stopConversation(conversationId: string): boolean {
    const found = [...this.runs.values()].filter((e) => e.run.conversationId === conversationId);
    for (const entry of found) entry.controller.abort();
    return found.length > 0;
  }

  busy(conversationId: string): boolean {
    return [...this.runs.values()].some((e) => e.run.conversationId === conversationId);
  }

  get(id: string): Run | undefined {
    return this.runs.get(id)?.run;
  }

  list(): RunInfo[] {
    return [...this.runs.values()].map(({ run }) => ({ id: run.id, origin: run.origin, conversationId: run.conversationId, startedAt: run.startedAt }));
  }

  /** Calls `listener` with the whole list each time a run starts or ends; returns the unsubscribe. */
  subscribe(listener: (runs: RunInfo[]) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  private changed(): void {
    if (!this.listeners.size) return;
    const runs = this.list();
    for (const listener of this.listeners) listener(runs);
  }
}
