import { useEffect, useRef } from 'react';
import { t } from '../ui/i18n';

interface Props {
  /** The server the stored key was saved for. */
  server: string;
  onConfirm(): void;
  onCancel(): void;
}

/**
 * Asked before a change of provider or base URL is saved while the old key is still in the form:
 * the key belongs to the old server and is removed, never sent to the new one.
 */
export function KeyRemovalConfirm({ server, onConfirm, onCancel }: Props) {
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => cancel.current?.focus(), []);
  return (
    <div
      role="alertdialog"
      aria-labelledby="key-removal-text"
      data-testid="key-removal"
      className="rounded border border-error/40 bg-error-bg p-3 text-sm"
      onKeyDown={(e) => e.key === 'Escape' && onCancel()}
    >
      <p id="key-removal-text" className="text-error">{t('settingsKeyRemovalConfirm', [server])}</p>
      <div className="mt-2 flex gap-2">
        <button type="button" data-testid="key-removal-confirm" className="rounded bg-accent px-3 py-1 text-on-accent" onClick={onConfirm}>
          {t('settingsKeyRemove')}
        </button>
        <button type="button" ref={cancel} data-testid="key-removal-cancel" className="rounded border border-line px-3 py-1" onClick={onCancel}>
          {t('cancel')}
        </button>
      </div>
    </div>
  );
}
