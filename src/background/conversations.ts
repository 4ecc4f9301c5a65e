import { ConversationSchema, emptyConversation, type Conversation } from '../shared/conversation';
import type { ConversationSummary } from '../shared/protocol';

export interface ConversationStorage {
  get(key: string): Promise<Record<string, unknown>>;
  set(items: Record<string, unknown>): Promise<void>;
  remove(key: string): Promise<void>;
}

const INDEX_KEY = 'conversationIndex';
const ACTIVE_KEY = 'activeConversationId';
const KEY = (id: string) => `conversation:${id}`;
/** Old conversations roll off past this many, so storage stays bounded. */
export const MAX_CONVERSATIONS = 200;

/**
 * Conversations in extension storage: one key per conversation plus an index of summaries
 * (newest first), so saving the conversation being streamed rewrites only that one and the
 * list of chats never loads them all.
 */
export class ConversationStore {
  private readonly cache = new Map<string, Conversation>();

  constructor(
    private readonly storage: ConversationStorage,
    private readonly now: () => number = Date.now,
  ) {}

  async get(id: string): Promise<Conversation | undefined> {
    const cached = this.cache.get(id);
    if (cached) return cached;
    const stored = (await this.storage.get(KEY(id)))[KEY(id)];
    const parsed = ConversationSchema.safeParse(stored);
    if (!parsed.success) return undefined;
    this.cache.set(id, parsed.data);
    return parsed.data;
  }

  /** The conversation the user last had open, or a new empty one. */
  async active(): Promise<Conversation> {
    const id = (await this.storage.get(ACTIVE_KEY))[ACTIVE_KEY];
    const found = typeof id === 'string' ? await this.get(id) : undefined;
    return found ?? this.create();
  }

  async open(id: string): Promise<Conversation | undefined> {
    const found = await this.get(id);
    if (found) await this.storage.set({ [ACTIVE_KEY]: id });
    return found;
  }

  async create(): Promise<Conversation> {
    const conversation = emptyConversation(this.now());
    await this.save(conversation);
    return conversation;
  }

  async save(conversation: Conversation): Promise<void> {
    conversation.updatedAt = this.now();
    this.cache.set(conversation.id, conversation);
    const index = await this.list();
    const next = [summaryOf(conversation), ...index.filter((s) => s.id !== conversation.id)];
    const dropped = next.splice(MAX_CONVERSATIONS);
    await this.storage.set({ [KEY(conversation.id)]: conversation, [INDEX_KEY]: next, [ACTIVE_KEY]: conversation.id });
    for (const { id } of dropped) {
      this.cache.delete(id);
      await this.storage.remove(KEY(id));
    }
  }

  async rename(id: string, title: string): Promise<Conversation | undefined> {
    const conversation = await this.get(id);
    if (!conversation) return undefined;
    conversation.title = title.trim().slice(0, 120);
    await this.save(conversation);
    return conversation;
  }

  async remove(id: string): Promise<void> {
    this.cache.delete(id);
    const index = (await this.list()).filter((s) => s.id !== id);
    await this.storage.set({ [INDEX_KEY]: index });
    await this.storage.remove(KEY(id));
  }

  /** Summaries, newest first. */
  async list(): Promise<ConversationSummary[]> {
    const stored = (await this.storage.get(INDEX_KEY))[INDEX_KEY];
    return Array.isArray(stored) ? stored.filter(isSummary) : [];
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
}

function summaryOf(c: Conversation): ConversationSummary {
  return { id: c.id, title: c.title, updatedAt: c.updatedAt, messageCount: c.messages.length };
}

function isSummary(value: unknown): value is ConversationSummary {
  return typeof value === 'object' && value !== null && typeof (value as ConversationSummary).id === 'string';
}
