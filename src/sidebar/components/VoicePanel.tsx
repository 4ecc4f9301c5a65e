import { t } from '../../ui/i18n';
import { useVoice } from '../stores/voice';

/**
 * What voice input has to say beside the composer: the level meter while recording; a fault with
 * its message and fix, and for a kept recording Retry and Discard; that answers cannot be read aloud.
 */
export function VoicePanel() {
  const { state, level, actions, noSpeechVoice, setNoSpeechVoice } = useVoice();
  return (
    <>
      {state.kind === 'recording' && (
        <div className="px-2 pt-2">
          <div data-testid="voice-level" role="meter" aria-label={t('voiceLevel')} aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(level * 100)} className="h-1.5 w-full overflow-hidden rounded bg-surface">
            <div className="h-full bg-error transition-[width] duration-75" style={{ width: `${Math.round(level * 100)}%` }} />
          </div>
        </div>
      )}
      {state.kind === 'error' && (
        <div role="alert" data-testid="voice-error" data-code={state.fault.code} className="m-2 rounded border border-error/40 bg-error-bg p-2 text-sm text-error">
          <p className="font-medium">{state.fault.message}</p>
          {state.fault.hint && <p className="mt-1 text-fg">{state.fault.hint}</p>}
          {state.recording ? (
            <>
              <p data-testid="voice-kept" className="mt-1 text-fg">
                {t('voiceKept', String(Math.max(1, Math.round(state.recording.durationMs / 1000))))}
              </p>
              <div className="mt-2 flex gap-2">
                <button type="button" data-testid="voice-retry" className="rounded bg-accent px-2 py-1 text-xs text-on-accent" onClick={() => actions?.retry()}>
                  {t('voiceRetry')}
                </button>
                <button type="button" data-testid="voice-discard" className="rounded border border-line px-2 py-1 text-xs text-fg" onClick={() => actions?.discard()}>
                  {t('voiceDiscard')}
                </button>
              </div>
            </>
          ) : (
            <button type="button" data-testid="voice-dismiss" className="mt-2 rounded border border-line px-2 py-1 text-xs text-fg" onClick={() => actions?.discard()}>
              {t('voiceDismiss')}
            </button>
          )}
        </div>
      )}
      {noSpeechVoice && (
        <div role="status" data-testid="voice-no-speech" className="m-2 rounded border border-line p-2 text-sm">
          <p className="font-medium">{t('voiceNoSpeechVoice')}</p>
          <p className="mt-1">{t('voiceNoSpeechVoiceHint')}</p>
          <button type="button" className="mt-2 rounded border border-line px-2 py-1 text-xs" onClick={() => setNoSpeechVoice(false)}>
            {t('voiceDismiss')}
          </button>
        </div>
      )}
    </>
  );
}
