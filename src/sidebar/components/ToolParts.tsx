import { useState } from 'react';
import { isBase64, isImageType, type ResultPart } from '../../shared/tool-parts';
import { t } from '../../ui/i18n';

const SUMMARY_CHARS = 120;

/** Structured data in a line: its compact JSON, cut short. */
function summarize(value: unknown): string {
  const json = JSON.stringify(value) ?? '';
  return json.length > SUMMARY_CHARS ? `${json.slice(0, SUMMARY_CHARS - 1)}…` : json;
}

/**
 * A tool result's images as thumbnails and its structured data as a short summary. An image is
 * shown only from its own bytes, as a data: URL of an accepted image type; nothing from a page or
 * a model is ever rendered as HTML. A thumbnail opens at full width where it is (a screenshot the
 * model was sent, with its marks), and closes again.
 */
export function ToolParts({ parts }: { parts: readonly ResultPart[] }) {
  const [open, setOpen] = useState<number | undefined>(undefined);
  return (
    <div className="flex flex-wrap items-start gap-1 px-2 pb-1">
      {parts.map((part, i) => {
        if (part.type === 'image') {
          if (!part.data || !isImageType(part.mimeType) || !isBase64(part.data)) {
            return <span key={i} data-testid="tool-image-gone" className="text-muted">{t('toolImageNotKept')}</span>;
          }
          const full = open === i;
          return (
            <button
              key={i}
              type="button"
              data-testid="tool-image-toggle"
              aria-expanded={full}
              title={t(full ? 'toolImageClose' : 'toolImageOpen')}
              className={full ? 'w-full' : 'max-w-full'}
              onClick={() => setOpen(full ? undefined : i)}
            >
              <img
                data-testid="tool-image"
                src={`data:${part.mimeType};base64,${part.data}`}
                alt={part.alt || t('toolImageAlt')}
                className={`${full ? 'w-full' : 'max-h-24 max-w-full'} rounded border border-line object-contain`}
              />
            </button>
          );
        }
        if (part.type === 'data') {
          return <p key={i} data-testid="tool-data" className="w-full truncate font-mono text-muted">{t('toolDataSummary', summarize(part.value))}</p>;
        }
        return null;
      })}
    </div>
  );
}
