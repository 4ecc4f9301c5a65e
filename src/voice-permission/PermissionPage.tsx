import { useCallback, useEffect, useState } from 'react';
import browser from 'webextension-polyfill';
import { t } from '../ui/i18n';
import { MIC_FAULT_WORDS, micFaultCode, type MicFaultCode } from '../sidebar/voice/microphone';
import { VOICE_CHANNEL } from '../sidebar/voice/channel';

type Step = { kind: 'asking' } | { kind: 'granted' } | { kind: 'failed'; code: MicFaultCode };

/**
 * Where the microphone is allowed for FoxAgent the first time. The sidebar cannot show Firefox's
 * prompt; this extension page can, and the grant belongs to the extension's origin, so the sidebar
 * records directly afterwards. The microphone is released at once: this page records nothing.
 */
export function PermissionPage() {
  const [step, setStep] = useState<Step>({ kind: 'asking' });

  const ask = useCallback(async () => {
    setStep({ kind: 'asking' });
    try {
      const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
      stream.getTracks().forEach((track) => track.stop());
      setStep({ kind: 'granted' });
      // Tell the sidebar (same extension origin) that it may record now.
      const channel = new BroadcastChannel(VOICE_CHANNEL);
      channel.postMessage({ granted: true });
      channel.close();
    } catch (error) {
      setStep({ kind: 'failed', code: micFaultCode(error) });
    }
  }, []);

  useEffect(() => {
    document.title = t('voicePermissionTitle');
    void ask();
  }, [ask]);

  const close = async () => {
    const tab = await browser.tabs.getCurrent();
    if (tab?.id !== undefined) await browser.tabs.remove(tab.id);
    else window.close();
  };

  return (
    <main data-testid="voice-permission" data-step={step.kind} className="mx-auto max-w-xl space-y-4 p-6 text-sm">
      <h1 className="text-lg font-semibold">{t('voicePermissionTitle')}</h1>
      <p>{t('voicePermissionIntro')}</p>
      <p className="text-fg/70">{t('voicePermissionPrivacy')}</p>
      {step.kind === 'asking' && (
        <p role="status" data-testid="voice-permission-status">
          {t('voicePermissionAsking')}
        </p>
      )}
      {step.kind === 'granted' && (
        <p role="status" data-testid="voice-permission-status" className="font-medium">
          {t('voicePermissionGranted')}
        </p>
      )}
      {step.kind === 'failed' && (
        <div role="alert" data-testid="voice-permission-error" data-code={step.code} className="rounded border border-error/40 bg-error-bg p-3 text-error">
          <p className="font-medium">{t(MIC_FAULT_WORDS[step.code].message)}</p>
          <p className="mt-1 text-fg">{t(MIC_FAULT_WORDS[step.code].hint)}</p>
        </div>
      )}
      <div className="flex gap-2">
        {step.kind !== 'granted' && (
          <button type="button" data-testid="voice-permission-ask" className="rounded bg-accent px-3 py-2 text-on-accent" onClick={() => void ask()}>
            {t('voicePermissionAsk')}
          </button>
        )}
        <button type="button" data-testid="voice-permission-close" className="rounded border border-line px-3 py-2" onClick={() => void close()}>
          {t('voicePermissionClose')}
        </button>
      </div>
    </main>
  );
}
