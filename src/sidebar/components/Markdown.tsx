import { memo, useMemo, useRef, useState, type ReactNode } from 'react';
import { t } from '../../ui/i18n';
import { ChunkSplitter, parseMarkdown, type Block, type Inline } from '../lib/markdown';
import { TabLink } from './TabLink';

/**
 * Renders Markdown as React elements. Text is always text: no HTML from anywhere is injected.
 * While an answer streams, it is cut into top-level chunks: a finished chunk is parsed once and
 * not rendered again, and only the chunk still being written is parsed as it grows.
 */
export function Markdown({ source, streaming = false }: { source: string; streaming?: boolean }) {
  return <div className="fa-markdown space-y-2 break-words">{streaming ? <StreamingBlocks source={source} /> : <Blocks source={source} />}</div>;
}

const Blocks = memo(function Blocks({ source }: { source: string }) {
  const blocks = useMemo(() => parseMarkdown(source), [source]);
  return <>{blocks.map(renderBlock)}</>;
});

/** Past this size, the chunk being written is parsed again only when it has grown by a quarter. */
const OPEN_CHUNK_REPARSE = 8 * 1024;

function StreamingBlocks({ source }: { source: string }) {
  const splitter = useRef(new ChunkSplitter());
  const chunks = splitter.current.split(source);
  const open = chunks.at(-1)!;
  return (
    <>
      {chunks.slice(0, -1).map((chunk) => (
        <Blocks key={chunk.start} source={chunk.text} />
      ))}
      <OpenChunk key={open.start} source={open.text} />
    </>
  );
}

/** The chunk being written. A long one is parsed at growing steps; what arrived since shows as plain text. */
function OpenChunk({ source }: { source: string }) {
  const parsed = useRef<{ source: string; blocks: Block[] } | undefined>(undefined);
  const last = parsed.current;
  const fresh = !last || !source.startsWith(last.source) || source.length <= OPEN_CHUNK_REPARSE || source.length >= last.source.length * 1.25;
  if (fresh) parsed.current = { source, blocks: parseMarkdown(source) };
  const { blocks, source: seen } = parsed.current!;
  const rest = source.slice(seen.length);
  return (
    <>
      {blocks.map(renderBlock)}
      {rest && <p className="whitespace-pre-wrap">{rest}</p>}
    </>
  );
}

function renderInline(node: Inline, key: number): ReactNode {
  switch (node.type) {
    case 'text':
      return node.text;
    case 'code':
      return <code key={key} className="rounded bg-surface px-1 font-mono text-[0.9em]">{node.text}</code>;
    case 'strong':
      return <strong key={key}>{node.children.map(renderInline)}</strong>;
    case 'em':
      return <em key={key}>{node.children.map(renderInline)}</em>;
    case 'del':
      return <del key={key}>{node.children.map(renderInline)}</del>;
    case 'link':
      return (
        <a key={key} href={node.href} target="_blank" rel="noopener noreferrer nofollow" className="text-accent underline">
          {node.children.map(renderInline)}
        </a>
      );
    case 'tab':
      return (
        <TabLink key={key} tabId={node.tabId}>
          {node.children.map(renderInline)}
        </TabLink>
      );
  }
}

function CodeBlock({ text, lang }: { text: string; lang: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard.writeText(text);
    setCopied(true);
    setTimeout(() => setCopied(false), 1500);
  };
  return (
    <div className="relative rounded border border-line bg-surface">
      <div className="flex items-center justify-between border-b border-line px-2 py-0.5 text-xs text-muted">
        <span>{lang}</span>
        <button type="button" data-testid="copy-code" onClick={() => void copy()} className="rounded px-1 hover:bg-bg">
          {copied ? t('copied') : t('copy')}
        </button>
      </div>
      <pre className="overflow-x-auto p-2 font-mono text-xs"><code>{text}</code></pre>
    </div>
  );
}

function renderBlock(block: Block, key: number): ReactNode {
  switch (block.type) {
    case 'heading': {
      const sizes = ['text-lg', 'text-base', 'text-sm', 'text-sm', 'text-sm', 'text-sm'];
      const Tag = `h${Math.min(block.level + 1, 6)}` as 'h2';
      return <Tag key={key} className={`${sizes[block.level - 1]} font-semibold`}>{block.children.map(renderInline)}</Tag>;
    }
    case 'paragraph':
      return <p key={key} className="whitespace-pre-wrap">{block.children.map(renderInline)}</p>;
    case 'code':
      return <CodeBlock key={key} text={block.text} lang={block.lang} />;
    case 'rule':
      return <hr key={key} className="border-line" />;
    case 'quote':
      return <blockquote key={key} className="border-l-2 border-line pl-2 text-muted">{block.children.map(renderBlock)}</blockquote>;
    case 'list': {
      const items = block.items.map((item, i) => <li key={i}>{item.map(renderBlock)}</li>);
      return block.ordered ? (
        <ol key={key} start={block.start} className="list-decimal space-y-1 pl-5">{items}</ol>
      ) : (
        <ul key={key} className="list-disc space-y-1 pl-5">{items}</ul>
      );
    }
    case 'table':
      return (
        <div key={key} className="overflow-x-auto">
          <table className="border-collapse text-xs">
            <thead>
              <tr>{block.header.map((cell, i) => <th key={i} style={{ textAlign: block.align[i] }} className="border border-line px-2 py-1">{cell.map(renderInline)}</th>)}</tr>
            </thead>
            <tbody>
              {block.rows.map((row, r) => (
                <tr key={r}>{row.map((cell, i) => <td key={i} style={{ textAlign: block.align[i] }} className="border border-line px-2 py-1">{cell.map(renderInline)}</td>)}</tr>
              ))}
            </tbody>
          </table>
        </div>
      );
  }
}
