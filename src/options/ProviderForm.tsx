import { useEffect, useState, type FormEvent } from 'react';
import type { ModelInfo } from '../shared/protocol';
import { DEFAULT_SETTINGS, PROVIDER_PRESETS, ProviderKindSchema, type ProviderKind, type Settings } from '../shared/settings';
import { t } from '../ui/i18n';
import { backgroundPort, RequestError } from '../sidebar/lib/port';

type Status = { kind: 'idle' } | { kind: 'busy' } | { kind: 'ok'; text: string } | { kind: 'error'; text: string; hint?: string };

function describe(error: unknown): { text: string; hint?: string } {
  if (error instanceof RequestError) return { text: error.detail.message, hint: error.detail.hint };
  return { text: error instanceof Error ? error.message : String(error) };
}

/** Provider, server address, key and model. Saved through the background, which owns keys. */
export function ProviderForm() {
  const [settings, setSettings] = useState<Settings>(DEFAULT_SETTINGS);
  const [models, setModels] = useState<ModelInfo[]>([]);
  const [status, setStatus] = useState<Status>({ kind: 'idle' });

  useEffect(() => {
    void backgroundPort.request({ type: 'settings/get' }).then(setSettings);
  }, []);

  const provider = settings.provider;
  const update = (patch: Partial<Settings['provider']>) => setSettings((s) => ({ ...s, provider: { ...s.provider, ...patch } }));
  const chooseKind = (kind: ProviderKind) => update({ kind, baseUrl: PROVIDER_PRESETS[kind].baseUrl, model: '' });

  const save = async (event?: FormEvent) => {
    event?.preventDefault();
    setStatus({ kind: 'busy' });
    try {
      setSettings(await backgroundPort.request({ type: 'settings/save', settings }));
      setStatus({ kind: 'ok', text: t('settingsSaved') });
      return true;
    } catch (error) {
      setStatus({ kind: 'error', ...describe(error) });
      return false;
    }
  };

  const testConnection = async () => {
    if (!(await save())) return;
    setStatus({ kind: 'busy' });
    try {
      const found = await backgroundPort.request({ type: 'models/list' });
      setModels(found);
      setStatus({ kind: 'ok', text: t('connectionOk', String(found.length)) });
    } catch (error) {
      setStatus({ kind: 'error', ...describe(error) });
    }
  };

  const field = 'mt-1 w-full rounded border border-line bg-surface p-2 text-sm';
  return (
    <form onSubmit={(e) => void save(e)} className="space-y-4" aria-labelledby="provider-heading">
      <h2 id="provider-heading" className="text-lg font-medium">{t('providerHeading')}</h2>
      <label className="block text-sm">
        {t('providerKind')}
        <select data-testid="provider-kind" className={field} value={provider.kind} onChange={(e) => chooseKind(ProviderKindSchema.parse(e.target.value))}>
          {ProviderKindSchema.options.map((kind) => (
            <option key={kind} value={kind}>{t(`provider_${kind.replace('-', '_')}`)}</option>
          ))}
        </select>
      </label>
      <label className="block text-sm">
        {t('baseUrl')}
        <input data-testid="base-url" className={field} type="url" required value={provider.baseUrl} onChange={(e) => update({ baseUrl: e.target.value })} />
      </label>
      <label className="block text-sm">
        {t('apiKey')}
        <input data-testid="api-key" className={field} type="password" autoComplete="off" value={provider.apiKey} placeholder={PROVIDER_PRESETS[provider.kind].needsKey ? t('apiKeyRequired') : t('apiKeyOptional')} onChange={(e) => update({ apiKey: e.target.value })} />
      </label>
      <label className="block text-sm">
        {t('model')}
        <input data-testid="model" className={field} list="model-list" value={provider.model} placeholder={t('modelPlaceholder')} onChange={(e) => update({ model: e.target.value })} />
        <datalist id="model-list">
          {models.map((m) => <option key={m.id} value={m.id} />)}
        </datalist>
      </label>
      <div className="flex gap-2">
        <button type="submit" data-testid="save" className="rounded bg-accent px-3 py-2 text-sm text-on-accent">{t('save')}</button>
        <button type="button" data-testid="test-connection" className="rounded border border-line px-3 py-2 text-sm" onClick={() => void testConnection()}>{t('testConnection')}</button>
      </div>
      <p role="status" data-testid="settings-status" className={status.kind === 'error' ? 'text-sm text-error' : 'text-sm text-muted'}>
        {status.kind === 'busy' ? t('working') : status.kind === 'ok' || status.kind === 'error' ? status.text : ''}
        {status.kind === 'error' && status.hint ? ` ${status.hint}` : ''}
      </p>
    </form>
  );
}
