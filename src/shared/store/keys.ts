/**
 * Every key FoxAgent uses in `browser.storage.local`, named once. No other module writes a key
 * string: they go through the typed records in `records.ts` (a test checks it).
 */
export const KEYS = {
  /** The layout version of everything below (absent: written before the store layer, version 0). */
  schemaVersion: 'schemaVersion',
  settings: 'settings',
  conversationIndex: 'conversationIndex',
  activeConversation: 'activeConversationId',
  /** Conversations with a turn under way when last saved: the ones to look at after a restart. */
  unfinishedConversations: 'unfinishedConversations',
  conversation: (id: string) => `conversation:${id}`,
  auditIndex: 'auditIndex',
  auditSegment: (id: number) => `audit:${id}`,
  /** Where the audit log was one array, before it was kept in segments: read once, then removed. */
  auditLegacy: 'auditLog',
  policies: 'permissionPolicies',
  sensitiveSites: 'sensitiveSites',
  textToolModels: 'textToolModels',
  draft: 'composerDraft',
  /** Workflow plans, newest first: id, conversation, status (what start-up recovery and the card list read). */
  planIndex: 'planIndex',
  plan: (id: string) => `plan:${id}`,
  /** A recording whose transcription failed, kept (with why) until it is transcribed or discarded. */
  keptRecording: 'voiceKeptRecording',
} as const;
