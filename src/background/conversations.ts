import { ConversationSchema, emptyConversation, type Conversation } from '../shared/conversation';

export interface ConversationStorage {
  get(key: string): Promise<Record<string, unknown>>;
  set(items: Record<string, unknown>): Promise<void>;
  remove(key: string): Promise<void>;
}

const INDEX_KEY = 'conversations';
const ACTIVE_KEY = 'activeConversationId';
const KEY = (id: string) => `conversation:${id}`;
/** Old conversations roll off past this many, so storage stays bounded. */
export const MAX_CONVERSATIONS = 200;

/**
 * Conversations in extension storage: one key per conversation plus an index of ids, so saving
 * the conversation being streamed rewrites only that one.
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

  async create(): Promise<Conversation> {
    const conversation = emptyConversation(this.now());
    await this.save(conversation);
    return conversation;
  }

  async save(conversation: Conversation): Promise<void> {
    conversation.updatedAt = this.now();
    this.cache.set(conversation.id, conversation);
    const ids = await this.index();
    const next = [conversation.id, ...ids.filter((id) => id !== conversation.id)];
    const dropped = next.splice(MAX_CONVERSATIONS);
    await this.storage.set({ [KEY(conversation.id)]: conversation, [INDEX_KEY]: next, [ACTIVE_KEY]: conversation.id });
    for (const id of dropped) {
      this.cache.delete(id);
      await this.storage.remove(KEY(id));
    }
  }

  private async index(): Promise<string[]> {
    const ids = (await this.storage.get(INDEX_KEY))[INDEX_KEY];
    return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
  }
}
