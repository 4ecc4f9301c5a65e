import { useEffect, useState, type FormEvent } from 'react';
import type { MessageKey } from '../shared/i18n';
import { DEFAULT_SETTINGS, sameVoiceServer, type Settings } from '../shared/settings';
import { VOICE_PRESETS, VoiceProviderKindSchema, type VoiceProviderKind, type VoiceSettings } from '../shared/voice';
import { errorWords, t } from '../ui/i18n';
import { backgroundPort, RequestError } from '../ui/port';
import { ApiKeyField } from './ApiKeyField';
import { KeyRemovalConfirm } from './KeyRemovalConfirm';
import { choosePreset, offeredProviders, parseVoiceNumbers, takesModel } from './voice-form';

type Status =
  | { kind: 'idle' }
  | { kind: 'busy' }
  | { kind: 'saved' }
  | { kind: 'tested'; text: string }
  | { kind: 'error'; text: string };

const PROVIDER_LABELS: Record<VoiceProviderKind, MessageKey> = {
  openai: 'voiceProvider_openai',
  groq: 'voiceProvider_groq',
  'openai-compatible': 'voiceProvider_openai_compatible',
  'whisper-cpp': 'voiceProvider_whisper_cpp',
  browser: 'voiceProvider_browser',
};

function failure(error: unknown): Status {
  if (error instanceof RequestError) {
    const { message, hint } = errorWords(error.detail);
    return { kind: 'error', text: [message, hint].filter(Boolean).join(' ') };
  }
  return { kind: 'error', text: error instanceof Error ? error.message : String(error) };
}

/** Voice commands: the transcription server (presets, address, model, key, language), sending and speaking, and a Test. */
export function VoiceSection() {
  const [loaded, setLoaded] = useState<{ voice: VoiceSettings; status: Status }>();
  useEffect(() => {
    backgroundPort.request({ type: 'settings/get' }).then(
      (settings) => setLoaded({ voice: settings.voice, status: { kind: 'idle' } }),
      (error: unknown) => setLoaded({ voice: DEFAULT_SETTINGS.voice, status: failure(error) }),
    );
  }, []);
  if (!loaded) return <p role="status" className="text-sm text-muted">{t('working')}</p>;
  return <VoiceEditor initial={loaded.voice} initialStatus={loaded.status} />;
}

function VoiceEditor({ initial, initialStatus }: { initial: VoiceSettings; initialStatus: Status }) {
  const [voice, setVoice] = useState(initial);
  const [stored, setStored] = useState(initial);
  const [numbers, setNumbers] = useState({ max: String(initial.maxSeconds), silence: String(initial.silenceSeconds) });
  const [status, setStatus] = useState(initialStatus);
  const [asking, setAsking] = useState<(removeKey: boolean) => void>();
  const update = (patch: Partial<VoiceSettings>) => setVoice((v) => ({ ...v, ...patch }));

  /** The saved key still in the form while the server changed: ask, then save without it (or not at all). */
  const keyFor = async (next: VoiceSettings): Promise<string | undefined> => {
    if (!next.apiKey || next.apiKey !== stored.apiKey || sameVoiceServer(stored, next)) return next.apiKey;
    const removeKey = await new Promise<boolean>((resolve) => setAsking(() => resolve));
    setAsking(undefined);
    return removeKey ? '' : undefined;
  };

  const save = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseVoiceNumbers(numbers.max, numbers.silence);
    if (!parsed) return setStatus({ kind: 'error', text: t('voiceNumbersInvalid') });
    const apiKey = await keyFor(voice);
    if (apiKey === undefined) return;
    setStatus({ kind: 'busy' });
    try {
      // The rest of the settings as they are now, so the provider form's unsaved edits and this save do not undo each other.
      const current: Settings = await backgroundPort.request({ type: 'settings/get' });
      const saved = await backgroundPort.request({ type: 'settings/save', settings: { ...current, voice: { ...voice, ...parsed, apiKey } } });
      setStored(saved.voice);
      setVoice(saved.voice);
      setStatus({ kind: 'saved' });
    } catch (error) {
      setStatus(failure(error));
    }
  };

  const test = async () => {
    setStatus({ kind: 'busy' });
    try {
      const { text, ms } = await backgroundPort.request({ type: 'voice/test', voice: { ...voice, ...parseVoiceNumbers(numbers.max, numbers.silence) } });
      setStatus({ kind: 'tested', text: text ? t('voiceTestResult', [String(ms), text]) : t('voiceTestResultSilent', String(ms)) });
    } catch (error) {
      setStatus(failure(error));
    }
  };

  const browserRecognition = voice.provider === 'browser';
  const statusText = status.kind === 'busy' ? t('working') : status.kind === 'saved' ? t('settingsSaved') : status.kind === 'idle' ? '' : status.text;
  const field = 'mt-1 w-full rounded border border-line bg-surface p-2 text-sm';
  return (
    <form onSubmit={(e) => void save(e)} className="space-y-4" aria-labelledby="voice-heading" data-testid="voice-section">
      <h2 id="voice-heading" className="text-lg font-medium">{t('voiceHeading')}</h2>
      <label className="block text-sm">
        {t('voiceProvider')}
        <select data-testid="voice-provider" className={field} value={voice.provider} onChange={(e) => { setVoice((v) => choosePreset(v, VoiceProviderKindSchema.parse(e.target.value))); setStatus({ kind: 'idle' }); }}>
          {offeredProviders(window, voice.provider).map((kind) => <option key={kind} value={kind}>{t(PROVIDER_LABELS[kind])}</option>)}
        </select>
      </label>
      {!browserRecognition && (
        <>
          <label className="block text-sm">
            {t('voiceBaseUrl')}
            <input data-testid="voice-base-url" className={field} type="url" required value={voice.baseUrl} onChange={(e) => update({ baseUrl: e.target.value })} />
          </label>
          {takesModel(voice.provider) && (
            <label className="block text-sm">
              {t('voiceModel')}
              <input data-testid="voice-model" className={field} value={voice.model} onChange={(e) => update({ model: e.target.value })} />
            </label>
          )}
          <ApiKeyField testId="voice-api-key" value={voice.apiKey} needsKey={VOICE_PRESETS[voice.provider].needsKey} className={field} onChange={(apiKey) => update({ apiKey })} />
        </>
      )}
      <label className="block text-sm">
        {t('voiceLanguage')}
        <input data-testid="voice-language" className={field} maxLength={10} value={voice.language} placeholder={t('voiceLanguagePlaceholder')} onChange={(e) => update({ language: e.target.value.trim() })} />
      </label>
      <label className="flex items-center gap-2 text-sm">
        <input data-testid="voice-send-on-stop" type="checkbox" checked={voice.sendOnStop} onChange={(e) => update({ sendOnStop: e.target.checked })} />
        {t('voiceSendOnStop')}
      </label>
      <label className="flex items-center gap-2 text-sm">
        <input data-testid="voice-spoken-replies" type="checkbox" checked={voice.spokenReplies} onChange={(e) => update({ spokenReplies: e.target.checked })} />
        {t('voiceSpokenReplies')}
      </label>
      <label className="block text-sm">
        {t('voiceMaxSeconds')}
        <input data-testid="voice-max-seconds" className={field} type="number" min={5} max={300} step={1} value={numbers.max} onChange={(e) => setNumbers((n) => ({ ...n, max: e.target.value }))} />
      </label>
      <label className="block text-sm">
        {t('voiceSilenceSeconds')}
        <input data-testid="voice-silence-seconds" className={field} type="number" min={0} max={10} step={0.5} value={numbers.silence} onChange={(e) => setNumbers((n) => ({ ...n, silence: e.target.value }))} />
      </label>
      <p data-testid="voice-audio-note" className="text-xs text-muted">{t(browserRecognition ? 'voiceAudioNoteBrowser' : 'voiceAudioNote')}</p>
      {asking && <KeyRemovalConfirm server={stored.baseUrl} onConfirm={() => asking(true)} onCancel={() => asking(false)} />}
      <div className="flex gap-2">
        <button type="submit" data-testid="voice-save" disabled={Boolean(asking)} className="rounded bg-accent px-3 py-2 text-sm text-on-accent disabled:opacity-50">{t('save')}</button>
        <button type="button" data-testid="voice-test" disabled={Boolean(asking) || browserRecognition || status.kind === 'busy'} title={browserRecognition ? t('voiceTestBrowser') : undefined} className="rounded border border-line px-3 py-2 text-sm disabled:opacity-50" onClick={() => void test()}>{t('voiceTest')}</button>
      </div>
      <p role="status" data-testid="voice-status" data-state={status.kind} className={status.kind === 'error' ? 'text-sm text-error' : 'text-sm text-muted'}>{statusText}</p>
    </form>
  );
}
