/**
 * The lint rules of eslint.config.js catch each forbidden direction: each case is a crossing
 * written here (never in src/), linted as if it stood at that place in src/.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');

function lint(file: string, source: string): { errors: number; messages: string } {
  const run = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/eslint/bin/eslint.js'), '--stdin', '--stdin-filename', file, '--format', 'json'], { cwd: ROOT, input: source, encoding: 'utf8' });
  const [report] = JSON.parse(run.stdout) as { errorCount: number; messages: { message: string }[] }[];
  return { errors: report!.errorCount, messages: report!.messages.map((m) => m.message).join('\n') };
}

test.each([
  ['src/content/crossing.ts', "import { ChatService } from '../background/chat-service';", /through the Port protocol/],
  ['src/content/crossing.ts', "import { App } from '../sidebar/App';", /never import the extension pages/],
  ['src/sidebar/components/Crossing.tsx', "import { handlers } from '../../background/message-handler';", /through the Port protocol/],
  ['src/options/Crossing.tsx', "import { useChat } from '../sidebar/stores/chat';", /shared UI code from src\/ui/],
  ['src/shared/crossing.ts', "import { t } from '../ui/i18n';", /imports nothing of ours/],
  ['src/background/permissions/crossing.ts', "import { runAgentLoop } from '../agent/loop';", /depends on permissions, not the reverse/],
  ['src/background/agent/crossing.ts', "import browser from 'webextension-polyfill';", /touches no browser API/],
])('%s: %s is refused', (file, source, reason) => {
  const { errors, messages } = lint(file, `${source}\nexport const used = 1;\n`);
  expect(errors).toBe(1);
  expect(messages).toMatch(reason);
});

test('allowed directions pass: the agent uses permissions, pages use shared and ui code', () => {
  expect(lint('src/background/agent/fine.ts', "import type { PermissionGate } from '../permissions/gate';\nexport type G = PermissionGate;\n").errors).toBe(0);
  expect(lint('src/options/Fine.tsx', "import { backgroundPort } from '../ui/port';\nimport { DEFAULT_SETTINGS } from '../shared/settings';\nexport const x = [backgroundPort, DEFAULT_SETTINGS];\n").errors).toBe(0);
});
