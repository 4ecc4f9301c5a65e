/**
 * The prompt size of each tool tier, as the scripted model receives it: one agent step of the
 * real loop with the built-in tools, through the real Ollama client, against the scripted server,
 * in native mode (the `tools` array beside the messages) and in text mode (the catalogue in the
 * system prompt). Figures: characters of the tools' part and of the whole request, and tokens
 * estimated at four characters each (the planning figure FoxAgent sizes context windows with).
 * The baseline is the full tier, which every model got before tiers existed.
 */
import { AGENT_PROMPT } from '../src/background/agent/prompts';
import { runAgentLoop } from '../src/background/agent/loop';
import { estimateTokens } from '../src/background/llm/context-budget';
import type { PermissionGate } from '../src/background/permissions/gate';
import { createToolRegistry, type ToolDeps } from '../src/background/tools';
import type { ToolTier } from '../src/shared/settings';
import { routerFor } from '../test/support/agent-fixtures';
import { startLlmServer, type RecordedRequest } from '../test/support/llm-server';
import { printTable } from './lib';

// The tools' factories keep their dependencies for when a tool runs; no tool runs here.
const unused = new Proxy({}, { get: () => () => Promise.reject(new Error('no tool runs in this bench')) });
const tools = createToolRegistry({ agent: unused, reader: unused, tabs: unused } as unknown as ToolDeps);
const gate = { decide: async () => ({ allowed: true }) } as unknown as PermissionGate;

type Mode = 'native' | 'xml';

/** The request the scripted model got for one step in `mode`, offered `tier`. */
async function requestFor(url: string, model: string, mode: Mode, tier: ToolTier, received: () => RecordedRequest[]): Promise<RecordedRequest> {
  await runAgentLoop(
    { conversationId: 'bench', model, mode, toolTier: tier, messages: [{ role: 'system', content: AGENT_PROMPT }, { role: 'user', content: 'Sign me in with ada@example.com.' }], limits: { stepLimit: 1 } },
    { router: routerFor(url, 'ollama'), tools, gate, emit: () => undefined },
    new AbortController().signal,
  );
  return received().at(-1)!;
}

async function main() {
  const server = await startLlmServer({ models: [{ name: 'qwen2.5:3b', tools: true, contextLength: 32768 }] });
  try {
    server.setFallback(() => ({ text: 'Hello.' }));
    const rows: Record<string, string | number>[] = [];
    const full: Record<Mode, number> = { native: 0, xml: 0 };
    for (const mode of ['native', 'xml'] as const) {
      for (const tier of ['full', 'compact'] as const) {
        const request = await requestFor(server.url, 'qwen2.5:3b', mode, tier, () => server.chatRequests());
        const messages = request.body.messages as { content: string }[];
        const toolsPart = mode === 'native' ? JSON.stringify(request.body.tools ?? []) : messages[0]!.content.slice(AGENT_PROMPT.length);
        const whole = [JSON.stringify(request.body.tools ?? []), ...messages.map((m) => m.content)].join('');
        if (tier === 'full') full[mode] = toolsPart.length;
        const offered = mode === 'native' ? (request.body.tools as unknown[]).length : (toolsPart.match(/^### /gm) ?? []).length;
        rows.push({
          mode: mode === 'xml' ? 'text' : mode,
          tier,
          tools: offered,
          'tools chars': toolsPart.length,
          'tools tokens (est.)': estimateTokens(toolsPart),
          'request chars': whole.length,
          'request tokens (est.)': estimateTokens(whole),
          'vs full': tier === 'full' ? '—' : `${Math.round((100 * toolsPart.length) / full[mode])}%`,
        });
      }
    }
    printTable('Prompt size per tool tier (one agent step, built-in tools, as the scripted model receives it)', rows);
  } finally {
    await server.close();
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
