import type { MessageKey } from '../../shared/i18n';
import { t } from '../../ui/i18n';
import { useVoice } from '../stores/voice';
import type { RecorderState } from '../voice/machine';

type Shown = 'unavailable' | 'idle' | 'requesting' | 'listening' | 'transcribing' | 'error';

const SHOWN: Record<RecorderState['kind'], Shown> = { idle: 'idle', requesting: 'requesting', recording: 'listening', stopping: 'transcribing', transcribing: 'transcribing', error: 'error' };
const ICON: Record<Shown, string> = { unavailable: '🎙', idle: '🎙', requesting: '…', listening: '●', transcribing: '…', error: '!' };
const LABEL: Record<Shown, MessageKey> = {
  unavailable: 'voice_unavailable',
  idle: 'voice_idle',
  requesting: 'voice_requesting',
  listening: 'voice_listening',
  transcribing: 'voice_transcribing',
  error: 'voice_error',
};

/**
 * Where voice input starts and shows its state. A click starts and a second click stops; holding
 * it down talks until it is released (hold-to-talk). Alt+V in the sidebar does the same; Esc cancels.
 */
export function VoiceButton() {
  const { state, actions } = useVoice();
  const shown: Shown = actions ? SHOWN[state.kind] : 'unavailable';
  const label = t(LABEL[shown]);
  // A kept recording is retried or discarded before a new one starts.
  const busy = shown === 'transcribing' || (state.kind === 'error' && Boolean(state.recording));
  return (
    <button
      type="button"
      data-testid="voice"
      data-state={shown}
      data-kind={state.kind}
      aria-label={label}
      aria-pressed={shown === 'listening'}
      title={actions ? `${label}. ${t('voiceButtonHelp')}` : label}
      disabled={!actions || busy}
      onPointerDown={(event) => {
        if (event.button !== 0 || !actions) return;
        actions.pressed();
        // The release counts even off the button; a pointer the browser no longer tracks cannot be captured.
        try {
          event.currentTarget.setPointerCapture(event.pointerId);
        } catch {
          /* released already: pointerup follows as usual */
        }
      }}
      onPointerUp={() => actions?.released()}
      onPointerCancel={() => actions?.released()}
      onClick={(event) => {
        // A click without a pointer (Enter or Space on the button, or from script) toggles.
        if (event.detail === 0) actions?.toggle();
      }}
      className={`rounded border border-line px-2 py-2 text-sm disabled:opacity-50 ${shown === 'listening' ? 'bg-error text-white' : ''}`}
    >
      <span aria-hidden="true">{ICON[shown]}</span>
    </button>
  );
}
