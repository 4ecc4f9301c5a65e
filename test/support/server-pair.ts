/**
 * Two scripted servers for the key tests: the one a key was saved for (which wants it) and
 * another one it must never reach. Started before the file's tests, reset before each, closed after.
 */
import { startLlmServer, type LlmServer } from './llm-server';

export function useServerPair(key: string): { saved(): LlmServer; other(): LlmServer } {
  let oldServer: LlmServer;
  let newServer: LlmServer;
  beforeAll(async () => {
    oldServer = await startLlmServer({ apiKey: key });
    newServer = await startLlmServer();
  });
  afterAll(async () => {
    await oldServer.close();
    await newServer.close();
  });
  beforeEach(() => {
    oldServer.reset();
    newServer.reset();
  });
  return { saved: () => oldServer, other: () => newServer };
}
