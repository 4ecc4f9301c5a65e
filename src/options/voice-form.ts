/**
 * The voice section's pure rules: which providers this browser can offer, what choosing a
 * preset fills in, and the numbers the settings schema accepts.
 */
import { VOICE_PRESETS, VoiceProviderKindSchema, VoiceSettingsSchema, type VoiceProviderKind, type VoiceSettings } from '../shared/voice';

/** Whether this browser has speech recognition of its own (Firefox release and ESR builds do not). */
export function hasSpeechRecognition(scope: object): boolean {
  return 'SpeechRecognition' in scope || 'webkitSpeechRecognition' in scope;
}

/** The providers to list: `browser` only where the browser has recognition (or it is already chosen). */
export function offeredProviders(scope: object, chosen: VoiceProviderKind): VoiceProviderKind[] {
  return VoiceProviderKindSchema.options.filter((kind) => kind !== 'browser' || hasSpeechRecognition(scope) || chosen === 'browser');
}

/** A preset chosen: its base URL and model replace the old ones (the key stays in the form, and the save asks about it). */
export function choosePreset(voice: VoiceSettings, provider: VoiceProviderKind): VoiceSettings {
  const { baseUrl, model } = VOICE_PRESETS[provider];
  return { ...voice, provider, baseUrl, model };
}

/** Whether the provider takes a model name (whisper.cpp serves the one it was started with). */
export const takesModel = (provider: VoiceProviderKind) => provider === 'openai' || provider === 'groq' || provider === 'openai-compatible';

const { maxSeconds, silenceSeconds } = VoiceSettingsSchema.shape;

/** The two numbers as typed, or undefined when the schema would refuse either. */
export function parseVoiceNumbers(maxText: string, silenceText: string): { maxSeconds: number; silenceSeconds: number } | undefined {
  const max = maxSeconds.safeParse(Number(maxText));
  const silence = silenceSeconds.safeParse(Number(silenceText));
  if (!maxText.trim() || !silenceText.trim() || !max.success || !silence.success) return undefined;
  return { maxSeconds: max.data, silenceSeconds: silence.data };
}
