import { t } from '../../ui/i18n';
import { useVoice, type VoiceState } from '../stores/voice';

const ICON: Record<VoiceState, string> = { unavailable: '🎙', idle: '🎙', listening: '●', transcribing: '…', error: '!' };

/** Where voice input starts and shows its state: unavailable, idle, listening, transcribing, error. */
export function VoiceButton() {
  const { state, detail, toggle } = useVoice();
  const label = t(`voice_${state}`);
  return (
    <button
      type="button"
      data-testid="voice"
      data-state={state}
      aria-label={label}
      aria-pressed={state === 'listening'}
      title={detail ? `${label}: ${detail}` : label}
      disabled={!toggle || state === 'unavailable' || state === 'transcribing'}
      onClick={toggle}
      className={`rounded border border-line px-2 py-2 text-sm disabled:opacity-50 ${state === 'listening' ? 'bg-error text-white' : ''}`}
    >
      <span aria-hidden="true">{ICON[state]}</span>
    </button>
  );
}
