/** Inputs shared by the tool-protocol benches: the tool-call corpus and two long replies. */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** A tool as the fixtures give it: a name, or a name with its argument schema. */
export type CorpusTool = string | { name: string; parameters?: Record<string, unknown> };

export interface CorpusCase {
  name: string;
  output: string;
  calls: { name: string; arguments: unknown }[];
  text: string;
  /** Overrides the family's tools. */
  tools?: CorpusTool[];
}

export interface CorpusFamily {
  /** The fixture file it came from. */
  file: string;
  family: string;
  source: string;
  tools: CorpusTool[];
  cases: CorpusCase[];
}

/** The tools a case offers. */
export const toolsOf = (family: CorpusFamily, c: CorpusCase): CorpusTool[] => c.tools ?? family.tools;

/** Tool names alone, as the previous release took them. */
export const namesOf = (tools: readonly CorpusTool[]): string[] => tools.map((t) => (typeof t === 'string' ? t : t.name));

/**
 * Every `test/fixtures/tool-calls/*.json`, by family name (or, with `folder`, another folder of
 * the same format: `tool-calls-pending` holds held-out outputs the parser does not read right
 * yet). Run from the project root.
 */
export function loadCorpus(folder = 'tool-calls'): CorpusFamily[] {
  const dir = path.resolve(process.cwd(), 'test/fixtures', folder);
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => ({ ...(JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as Omit<CorpusFamily, 'file'>), file: f.replace(/\.json$/, '') }));
}

/** What a model writes after reading a page: headings, lists, links, inline code, a table. */
const SECTION = `## What the page says

The page is the pricing overview for **Nimbus Storage**, a hosted object store. It opens with a short pitch ("Store anything, pay for what you keep") and then splits the offer into three plans. I read the whole page, including the FAQ at the bottom, so the summary below should be complete; the one thing I could not see is the calculator widget, which is drawn on a canvas and has no text.

### Plans

- **Starter** — free up to 10 GB, one bucket, community support. Egress is capped at 1 GB a day, and files older than 90 days without a download are moved to cold storage.
- **Team** — $8 per user per month (billed yearly) or $10 monthly. It adds unlimited buckets, versioning for 30 days, SSO through SAML or OIDC, and email support with a one-business-day reply.
- **Enterprise** — "contact sales". The page lists audit logs, a 99.99% uptime SLA, customer-managed keys and a named account manager, but no price.

| Plan | Storage | Versioning | Support |
| --- | --- | --- | --- |
| Starter | 10 GB | none | community forum |
| Team | 1 TB per user, pooled | 30 days | email, 1 business day |
| Enterprise | custom | up to 1 year | phone + named manager |

### Details worth knowing

1. Prices on the page are shown in USD; a small link under the table ([switch currency](https://example.com/pricing?currency=eur)) changes them to EUR, and the Team plan then reads €7.50.
2. The yearly discount is applied at checkout, not on this page: the button says "Start 14-day trial" and leads to \`/signup?plan=team\`.
3. Overage on Team is $0.02 per GB-month for storage and $0.05 per GB for egress above 2 TB a month. The FAQ says there is no hard cap, only an email alert at 80% and 100% of the pooled quota.
4. The API section mentions an S3-compatible endpoint (\`https://s3.nimbus.example\`) and says existing tools such as \`rclone\` and \`aws s3 cp\` work unchanged; a footnote [1] says multipart uploads above 5 GB need the v2 signature.

> Note: the FAQ answer about data residency is cut off on the page itself ("Data for EU customers is stored in…") — it looks like a bug on their side rather than something hidden from me.

### My reading

If you are a team of five that keeps about 2 TB, Team costs $40 a month on the yearly plan and stays within quota (5 × 1 TB pooled). The only likely extra is egress if you serve files publicly; at the prices above, 3 TB of egress in a month would add about $50. Starter is too small for that: the 1 GB-a-day egress limit alone would stop you within the first morning of real use.

`;

function prose(parts: number): string {
  return Array.from({ length: parts }, (_, i) => SECTION.replace('## What the page says', `## Part ${i + 1}: what the page says`)).join('');
}

/** About 8 KB of prose, no call. */
export const LONG_PROSE = prose(3).trimEnd();

/** The same prose, then one call in the common Hermes/Qwen form. */
export const LONG_PROSE_WITH_CALL = `${LONG_PROSE}\n\nI will open the Team plan's sign-up page so you can see the checkout total.\n\n<tool_call>\n{"name": "click", "arguments": {"id": 12}}\n</tool_call>`;
