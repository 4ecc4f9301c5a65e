import { emptyConversation, hasUnfinishedTurn, type Conversation } from '../shared/conversation';
import type { ConversationSummary } from '../shared/protocol';
import { drop, MAX_CONVERSATIONS, put, RECORDS, rollOff, storeOf, type Change, type Store, type StoreOrArea } from '../shared/store';
import { interruptTurn } from './interrupted';

export { MAX_CONVERSATIONS } from '../shared/store';

/**
 * Conversations in extension storage: one key per conversation plus an index of summaries
 * (newest first), so saving the conversation being streamed rewrites only that one and the
 * list of chats never loads them all.
 *
 * Every write goes through one queue, so a reply streaming into one chat cannot overwrite the
 * index with a copy read before another chat was created, renamed or deleted. A deleted
 * conversation stays deleted: saves still coming from its turn are dropped.
 */
export class ConversationStore {
  private readonly cache = new Map<string, Conversation>();
  private readonly deleted = new Set<string>();
  private queue: Promise<unknown> = Promise.resolve();
  /** The index and the unfinished set as stored, once read; only written inside the queue. */
  private state: { index: ConversationSummary[]; unfinished: Set<string> } | undefined;
  /** Start-up recovery; reads wait for it, so no turn starts on a conversation being repaired. */
  private recovering: Promise<unknown> = Promise.resolve();

  private readonly store: Store;

  constructor(
    storage: StoreOrArea,
    private readonly now: () => number = Date.now,
  ) {
    this.store = storeOf(storage);
  }

  async get(id: string): Promise<Conversation | undefined> {
    await this.recovering;
    return this.read(id);
  }

  /** The conversation the user last had open, or a new empty one. */
  async active(): Promise<Conversation> {
    const id = await this.store.read(RECORDS.activeConversation);
    const found = id !== undefined ? await this.get(id) : undefined;
    return found ?? this.create();
  }

  async open(id: string): Promise<Conversation | undefined> {
    const found = await this.get(id);
    if (found) await this.exclusive(() => this.store.set(RECORDS.activeConversation, id));
    return found;
  }

  async create(): Promise<Conversation> {
    const conversation = emptyConversation(this.now());
    await this.write(conversation, { open: true });
    return conversation;
  }

  /** Stores the conversation and its summary. A conversation deleted meanwhile is not brought back. */
  save(conversation: Conversation): Promise<void> {
    return this.write(conversation, { open: false });
  }

  async rename(id: string, title: string): Promise<Conversation | undefined> {
    const conversation = await this.get(id);
    if (!conversation) return undefined;
    conversation.title = title.trim().slice(0, 120);
    await this.save(conversation);
    return conversation;
  }

  remove(id: string): Promise<void> {
    this.deleted.add(id);
    this.cache.delete(id);
    return this.exclusive(async () => {
      const state = await this.load();
      state.index = state.index.filter((s) => s.id !== id);
      const unfinished = state.unfinished.delete(id);
      await this.store.write(
        put(RECORDS.conversationIndex, state.index),
        ...(unfinished ? [put(RECORDS.unfinishedConversations, [...state.unfinished])] : []),
        drop(RECORDS.conversation(id)),
      );
    });
  }

  /** Summaries, newest first. */
  async list(): Promise<ConversationSummary[]> {
    await this.queue;
    return [...(await this.load()).index];
  }

  /** Conversations whose title or text contains every word of the query. */
  async search(query: string): Promise<ConversationSummary[]> {
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    if (!words.length) return this.list();
    const hits: ConversationSummary[] = [];
    for (const summary of await this.list()) {
      const conversation = await this.get(summary.id);
      const text = `${summary.title}\n${conversation?.messages.map((m) => m.content).join('\n') ?? ''}`.toLowerCase();
      if (words.every((w) => text.includes(w))) hits.push(summary);
    }
    return hits;
  }

  /**
   * Run once as the background starts, before any turn can: every turn saved as under way was
   * cut off by the restart (nothing runs yet), so its answer and calls are marked interrupted and
   * the chat ends with an error that offers Retry. Returns the conversations it changed.
   */
  recoverInterrupted(): Promise<Conversation[]> {
    const run = this.exclusive(async () => {
      const state = await this.load();
      const active = await this.store.read(RECORDS.activeConversation);
      // The open chat is looked at too: it may have been left running before this was tracked.
      const ids = new Set([...state.unfinished, ...(active !== undefined ? [active] : [])]);
      const changed: Conversation[] = [];
      for (const id of ids) {
        const conversation = await this.read(id);
        if (!conversation || !hasUnfinishedTurn(conversation)) continue;
        interruptTurn(conversation, this.now());
        await this.persist(conversation, { open: false });
        changed.push(conversation);
      }
      if (state.unfinished.size) {
        state.unfinished.clear();
        await this.store.set(RECORDS.unfinishedConversations, []);
      }
      return changed;
    });
    this.recovering = run.catch(() => undefined);
    return run;
  }

  private async read(id: string): Promise<Conversation | undefined> {
    if (this.deleted.has(id)) return undefined;
    const cached = this.cache.get(id);
    if (cached) return cached;
    const stored = await this.store.read(RECORDS.conversation(id));
    if (!stored || this.deleted.has(id)) return undefined;
    this.cache.set(id, stored);
    return stored;
  }

  private write(conversation: Conversation, options: { open: boolean }): Promise<void> {
    if (this.deleted.has(conversation.id)) return Promise.resolve();
    conversation.updatedAt = this.now();
    this.cache.set(conversation.id, conversation);
    return this.exclusive(() => this.persist(conversation, options));
  }

  /** Writes one conversation, its summary and (when it changed) the unfinished set; inside the queue. */
  private async persist(conversation: Conversation, { open }: { open: boolean }): Promise<void> {
    if (this.deleted.has(conversation.id)) return;
    const state = await this.load();
    const { kept: index, dropped } = rollOff([summaryOf(conversation), ...state.index.filter((s) => s.id !== conversation.id)], MAX_CONVERSATIONS);
    const unfinished = new Set(state.unfinished);
    for (const { id } of dropped) unfinished.delete(id);
    if (hasUnfinishedTurn(conversation)) unfinished.add(conversation.id);
    else unfinished.delete(conversation.id);
    const unfinishedChanged = unfinished.size !== state.unfinished.size || [...unfinished].some((id) => !state.unfinished.has(id));
    const changes: Change[] = [put(RECORDS.conversation(conversation.id), conversation), put(RECORDS.conversationIndex, index)];
    if (unfinishedChanged) changes.push(put(RECORDS.unfinishedConversations, [...unfinished]));
    if (open) changes.push(put(RECORDS.activeConversation, conversation.id));
    await this.store.write(...changes, ...dropped.map(({ id }) => drop(RECORDS.conversation(id))));
    // Only what reached storage becomes the known state.
    Object.assign(state, { index, unfinished });
    for (const { id } of dropped) this.cache.delete(id);
  }

  private async load(): Promise<NonNullable<ConversationStore['state']>> {
    if (!this.state) {
      const index = await this.store.read(RECORDS.conversationIndex);
      const unfinished = await this.store.read(RECORDS.unfinishedConversations);
      this.state ??= { index, unfinished: new Set(unfinished) };
    }
    return this.state;
  }

  /** Runs `task` after every write queued before it; a failed write does not block the next. */
  private exclusive<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }
}

function summaryOf(c: Conversation): ConversationSummary {
  return { id: c.id, title: c.title, updatedAt: c.updatedAt, messageCount: c.messages.length };
}
