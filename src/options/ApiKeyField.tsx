import { useId, useState } from 'react';
import { t } from '../ui/i18n';

interface Props {
  value: string;
  needsKey: boolean;
  className: string;
  /** The field's test id (default `api-key`), so two key fields on one page stay apart. */
  testId?: string;
  onChange(value: string): void;
}

/** The provider key: masked unless the user asks to see it. It is kept in local storage only. */
export function ApiKeyField({ value, needsKey, className, testId = 'api-key', onChange }: Props) {
  const [visible, setVisible] = useState(false);
  const inputId = useId();
  const noteId = useId();
  return (
    <div className="text-sm">
      <label htmlFor={inputId}>{t('apiKey')}</label>
      <div className="flex items-start gap-2">
        <input
          id={inputId}
          data-testid={testId}
          className={className}
          type={visible ? 'text' : 'password'}
          autoComplete="off"
          spellCheck={false}
          aria-describedby={noteId}
          value={value}
          placeholder={needsKey ? t('apiKeyRequired') : t('apiKeyOptional')}
          onChange={(e) => onChange(e.target.value)}
        />
        <button
          type="button"
          data-testid="toggle-key"
          aria-pressed={visible}
          aria-controls={inputId}
          className="mt-1 rounded border border-line px-3 py-2"
          onClick={() => setVisible((v) => !v)}
        >
          {visible ? t('settingsHideKey') : t('settingsShowKey')}
        </button>
      </div>
      <p id={noteId} className="mt-1 text-xs text-muted">{t('settingsKeyStoredLocally')}</p>
    </div>
  );
}
