/** The images a chat request carries, decoded from each wire format, with the role of the message that carried them. */

export interface ReceivedImage {
  role: string;
  /** The declared type: the data URL's for OpenAI; Ollama declares none. */
  mimeType?: string;
  bytes: Buffer;
}

interface WireMessage {
  role?: string;
  content?: unknown;
  images?: unknown;
}

export function imagesIn(api: 'openai' | 'ollama', body: unknown): ReceivedImage[] {
  const messages = (body as { messages?: WireMessage[] } | undefined)?.messages;
  if (!Array.isArray(messages)) return [];
  const found: ReceivedImage[] = [];
  for (const m of messages) {
    const role = String(m.role);
    if (api === 'ollama') {
      for (const image of Array.isArray(m.images) ? m.images : []) found.push({ role, bytes: Buffer.from(String(image), 'base64') });
      continue;
    }
    for (const part of Array.isArray(m.content) ? (m.content as { type?: string; image_url?: { url?: string } }[]) : []) {
      if (part.type !== 'image_url') continue;
      const match = /^data:([^;,]+);base64,(.*)$/s.exec(part.image_url?.url ?? '');
      if (match) found.push({ role, mimeType: match[1], bytes: Buffer.from(match[2]!, 'base64') });
    }
  }
  return found;
}
