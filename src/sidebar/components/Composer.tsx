import { useEffect } from 'react';
import { t } from '../../ui/i18n';
import { sendOnEnter } from '../lib/keys';
import { useChat } from '../stores/chat';
import { useDraft } from '../stores/draft';
import { ModelBar } from './ModelBar';
import { VoiceButton } from './VoiceButton';

/** Where the user types. Enter sends, Shift+Enter breaks the line; the draft survives closing. */
export function Composer() {
  const { text, set: setText, restore } = useDraft();
  const running = useChat((s) => s.running);
  const send = useChat((s) => s.send);
  const stop = useChat((s) => s.stop);

  useEffect(() => void restore(), [restore]);

  const submit = async () => {
    const message = text.trim();
    if (!message || running) return;
    setText('');
    // If the background could not take it, the text comes back: nothing typed is lost.
    if (!(await send(message))) setText(message);
  };

  const onKeyDown = sendOnEnter(() => void submit());

  return (
    <div className="border-t border-line">
      <ModelBar />
      <form
        className="flex items-end gap-2 p-2"
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <textarea
          data-testid="composer"
          aria-label={t('composerLabel')}
          placeholder={t('composerPlaceholder')}
          rows={2}
          value={text}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
          className="min-h-10 min-w-0 flex-1 resize-none rounded border border-line bg-surface p-2 text-sm"
        />
        <VoiceButton />
        {running ? (
          <button type="button" data-testid="stop" onClick={() => void stop()} className="rounded bg-error px-3 py-2 text-sm text-white">
            {t('stop')}
          </button>
        ) : (
          <button type="submit" data-testid="send" disabled={!text.trim()} className="rounded bg-accent px-3 py-2 text-sm text-on-accent disabled:opacity-50">
            {t('send')}
          </button>
        )}
      </form>
    </div>
  );
}
