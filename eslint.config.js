// The architecture's boundaries, enforced by lint: one rule a forbidden direction. `npm run lint`
// and `npm test` run it on src/, and a crossing fails them. (Type checking is tsc's job.)
import tseslint from 'typescript-eslint';

const group = (patterns, message) => ({ group: patterns, message });
const rule = ({ patterns = [], paths = [] }) => ({ 'no-restricted-imports': ['error', { patterns, paths }] });

const BACKGROUND = group(['**/background', '**/background/**'], 'Only the background holds keys and calls providers: reach it through the Port protocol (src/shared/protocol.ts), never by import.');
const PAGES = group(['**/sidebar', '**/sidebar/**', '**/options', '**/options/**'], 'Content scripts never import the extension pages.');
const SIDEBAR = group(['**/sidebar', '**/sidebar/**'], 'The options page takes shared UI code from src/ui/, not from the sidebar.');
const OPTIONS = group(['**/options', '**/options/**'], 'The sidebar does not import the options page; shared UI code lives in src/ui/.');
const UI_PAGES = group(['**/sidebar/**', '**/options/**', '**/content/**'], 'src/ui/ is shared by the pages and imports none of them.');
const NOT_SHARED = group(['**/background/**', '**/content/**', '**/sidebar/**', '**/options/**', '**/ui/**'], 'src/shared/ imports nothing of ours but shared code.');
const AGENT = group(['**/agent', '**/agent/**'], 'The agent depends on permissions, not the reverse: the gate interface lives in permissions/gate.ts.');
const NO_BROWSER = { name: 'webextension-polyfill', message: 'The core takes its collaborators as arguments and touches no browser API; only index.ts and thin adapters do.' };

export default [
  { ignores: ['dist/**', 'dist-*/**', 'node_modules/**', 'web-ext-artifacts/**', 'test-artifacts/**'] },
  {
    files: ['src/**/*.ts', 'src/**/*.tsx'],
    languageOptions: { parser: tseslint.parser, parserOptions: { ecmaFeatures: { jsx: true }, sourceType: 'module' } },
  },
  { files: ['src/content/**'], rules: rule({ patterns: [BACKGROUND, PAGES, group(['**/ui/**'], 'Content scripts never import the extension pages’ UI code.')] }) },
  { files: ['src/sidebar/**'], rules: rule({ patterns: [BACKGROUND, OPTIONS] }) },
  { files: ['src/options/**'], rules: rule({ patterns: [BACKGROUND, SIDEBAR] }) },
  { files: ['src/ui/**'], rules: rule({ patterns: [BACKGROUND, UI_PAGES] }) },
  { files: ['src/shared/**'], rules: rule({ patterns: [NOT_SHARED] }) },
  { files: ['src/background/permissions/**'], rules: rule({ patterns: [AGENT], paths: [NO_BROWSER] }) },
  {
    files: ['src/background/{agent,llm,orchestrator,runs}/**', 'src/background/tools/registry.ts', 'src/background/{intent,chat-service,conversations}.ts'],
    rules: rule({ paths: [NO_BROWSER] }),
  },
];
