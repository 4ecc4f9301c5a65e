/**
 * Getting the microphone in the sidebar. The sidebar cannot show Firefox's permission prompt,
 * so the first grant happens on a small extension page in a tab (`voice-permission.html`); the
 * grant belongs to the extension's origin, and afterwards the sidebar records directly. No web
 * page ever gets the microphone.
 */
import type { MessageKey } from '../../shared/i18n';
import type { VoiceFault } from './machine';

/** What the browser says of the microphone permission; `unknown` where it cannot say. */
export type MicPermission = 'granted' | 'denied' | 'prompt' | 'unknown';

/** Why the microphone could not be used, each with its own message and fix. */
export type MicFaultCode =
  | 'mic_denied'
  | 'mic_missing'
  | 'mic_busy'
  | 'mic_failed'
  /** The recording holds no audio: the microphone delivered no samples. */
  | 'mic_silent'
  | 'mic_needs_permission'
  | 'recorder_unsupported'
  /** The `browser` provider: this browser has no speech recognition, it failed, or it heard nothing. */
  | 'recognition_unavailable'
  | 'recognition_failed'
  | 'recognition_empty';

export const MIC_FAULT_WORDS: Record<MicFaultCode, { message: MessageKey; hint: MessageKey }> = {
  mic_denied: { message: 'voiceMicDenied', hint: 'voiceMicDeniedHint' },
  mic_missing: { message: 'voiceMicMissing', hint: 'voiceMicMissingHint' },
  mic_busy: { message: 'voiceMicBusy', hint: 'voiceMicBusyHint' },
  mic_failed: { message: 'voiceMicFailed', hint: 'voiceMicFailedHint' },
  mic_silent: { message: 'voiceMicSilent', hint: 'voiceMicSilentHint' },
  mic_needs_permission: { message: 'voiceMicNeedsPermission', hint: 'voiceMicNeedsPermissionHint' },
  recorder_unsupported: { message: 'voiceRecorderUnsupported', hint: 'voiceRecorderUnsupportedHint' },
  recognition_unavailable: { message: 'voiceRecognitionUnavailable', hint: 'voiceRecognitionUnavailableHint' },
  recognition_failed: { message: 'voiceRecognitionFailed', hint: 'voiceRecognitionFailedHint' },
  recognition_empty: { message: 'voiceRecognitionEmpty', hint: 'voiceRecognitionEmptyHint' },
};

/** The fault for an error `getUserMedia` threw (a DOMException, by its name). */
export function micFaultCode(error: unknown): MicFaultCode {
  const name = error instanceof Error || (typeof error === 'object' && error !== null && 'name' in error) ? String((error as { name: unknown }).name) : '';
  switch (name) {
    case 'NotAllowedError':
    case 'SecurityError':
      return 'mic_denied';
    case 'NotFoundError':
    case 'OverconstrainedError':
      return 'mic_missing';
    case 'NotReadableError':
    case 'AbortError':
      return 'mic_busy';
    default:
      return 'mic_failed';
  }
}

export function micFault(code: MicFaultCode, word: (key: MessageKey) => string): VoiceFault {
  const words = MIC_FAULT_WORDS[code];
  return { code, message: word(words.message), hint: word(words.hint) };
}

/** Reads the permission where the browser tells it (`permissions.query` may not know `microphone`). */
export async function queryMicPermission(permissions: Pick<Permissions, 'query'> | undefined): Promise<MicPermission> {
  if (!permissions) return 'unknown';
  try {
    const status = await permissions.query({ name: 'microphone' as PermissionName });
    return status.state;
  } catch {
    return 'unknown';
  }
}

export interface MicAccessDeps {
  permission(): Promise<MicPermission>;
  getUserMedia(constraints: MediaStreamConstraints): Promise<MediaStream>;
  /** Opens the permission page in a tab (it asks where Firefox can show the prompt). */
  openPermissionPage(): Promise<void>;
  /** How long the sidebar waits on `getUserMedia` before deciding the prompt cannot show here. */
  timeoutMs?: number;
}

export type MicAccess = { stream: MediaStream } | { fault: MicFaultCode };

/**
 * The microphone for a recording. Granted: the stream. Denied: the fault that says how to allow
 * it. Not yet decided: the sidebar tries (a browser that needs no prompt answers at once); when
 * that is refused or hangs on a prompt the sidebar cannot show, the permission page opens.
 */
export async function acquireMicrophone(deps: MicAccessDeps): Promise<MicAccess> {
  const state = await deps.permission();
  if (state === 'denied') return { fault: 'mic_denied' };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hung = new Promise<'hung'>((resolve) => (timer = setTimeout(() => resolve('hung'), deps.timeoutMs ?? 2500)));
  const asked = deps.getUserMedia({ audio: true });
  try {
    const outcome = await Promise.race([asked, hung]);
    if (outcome === 'hung') {
      // A late grant must not leave the microphone on.
      void asked.then((stream) => stream.getTracks().forEach((track) => track.stop()), () => undefined);
      await deps.openPermissionPage();
      return { fault: 'mic_needs_permission' };
    }
    return { stream: outcome };
  } catch (error) {
    const code = micFaultCode(error);
    // Refused without a decision on record: the prompt could not show in the sidebar.
    if (code === 'mic_denied' && state !== 'granted') {
      await deps.openPermissionPage();
      return { fault: 'mic_needs_permission' };
    }
    return { fault: code };
  } finally {
    clearTimeout(timer);
  }
}
