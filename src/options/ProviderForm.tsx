import { useEffect, useState, type FormEvent } from 'react';
import type { ModelInfo } from '../shared/protocol';
import { DEFAULT_SETTINGS, PROVIDER_PRESETS, ProviderKindSchema, sameServer, type ProviderKind, type Settings, type ToolTier } from '../shared/settings';
import type { MessageKey } from '../shared/i18n';
import { errorWords, t } from '../ui/i18n';
import { backgroundPort, RequestError } from '../ui/port';
import { AgentFields, parseStepLimit, STEP_LIMIT } from './AgentFields';
import { ApiKeyField } from './ApiKeyField';
import { KeyRemovalConfirm } from './KeyRemovalConfirm';
import { PlanFields } from './PlanFields';
import { ToolTierField } from './ToolTierField';
import { VisionField } from './VisionField';
import { reportConnection } from './connection-report';

type Status =
  | { kind: 'idle' }
  | { kind: 'busy' }
  | { kind: 'saved' }
  /** The server answered; `model` is the default model the report speaks about. */
  | { kind: 'tested'; model: string }
  | { kind: 'error'; text: string; hint?: string };

const KIND_LABELS: Record<ProviderKind, MessageKey> = {
  ollama: 'provider_ollama',
  openai: 'provider_openai',
  openrouter: 'provider_openrouter',
  'openai-compatible': 'provider_openai_compatible',
};

function failure(error: unknown): Status {
  if (error instanceof RequestError) {
    const { message, hint } = errorWords(error.detail);
    return { kind: 'error', text: message, hint };
  }
  return { kind: 'error', text: error instanceof Error ? error.message : String(error) };
}

/** Provider, server address, key, model and how the agent runs. Saved through the background, which owns keys. */
export function ProviderForm() {
  // The form appears once the stored settings are in, so nothing typed earlier is overwritten.
  const [loaded, setLoaded] = useState<{ settings: Settings; status: Status }>();
  useEffect(() => {
    backgroundPort.request({ type: 'settings/get' }).then(
      (settings) => setLoaded({ settings, status: { kind: 'idle' } }),
      (error: unknown) => setLoaded({ settings: DEFAULT_SETTINGS, status: failure(error) }),
    );
  }, []);
  if (!loaded) return <p role="status" className="text-sm text-muted">{t('working')}</p>;
  return <ProviderEditor initial={loaded.settings} initialStatus={loaded.status} />;
}

function ProviderEditor({ initial, initialStatus }: { initial: Settings; initialStatus: Status }) {
  const [settings, setSettings] = useState(initial);
  const [stepText, setStepText] = useState(String(initial.stepLimit));
  const [models, setModels] = useState<ModelInfo[]>([]);
  const [status, setStatus] = useState(initialStatus);
  /** What the background holds now: the key in the form belongs to this server. */
  const [stored, setStored] = useState(initial);
  /** The question asked before the stored key is dropped, and how it was answered. */
  const [asking, setAsking] = useState<(removeKey: boolean) => void>();

  const adopt = (next: Settings) => {
    setStored(next);
    setSettings(next);
    setStepText(String(next.stepLimit));
  };

  /** A new provider or base URL with the old key still in the form: ask, then send it without the key. */
  const keyFor = async (next: Settings): Promise<string | undefined> => {
    const { apiKey } = next.provider;
    if (!apiKey || apiKey !== stored.provider.apiKey || sameServer(stored.provider, next.provider)) return apiKey;
    const removeKey = await new Promise<boolean>((resolve) => setAsking(() => resolve));
    setAsking(undefined);
    return removeKey ? '' : undefined;
  };

  const provider = settings.provider;
  const update = (patch: Partial<Settings['provider']>) => setSettings((s) => ({ ...s, provider: { ...s.provider, ...patch } }));
  const forgetServer = () => {
    setModels([]);
    setStatus({ kind: 'idle' });
  };
  const chooseKind = (kind: ProviderKind) => {
    update({ kind, baseUrl: PROVIDER_PRESETS[kind].baseUrl, model: '' });
    forgetServer();
  };
  /** The window the user sets for a model ('' goes back to what the server says). */
  const setModelContext = (model: string, text: string) =>
    setSettings((s) => {
      const { [model]: _old, ...rest } = s.modelContext;
      const tokens = Math.round(Number(text));
      return { ...s, modelContext: text.trim() && tokens >= 512 ? { ...rest, [model]: Math.min(tokens, 10_000_000) } : rest };
    });
  /** The tool set the user picks for a model (undefined goes back to choosing by its size). */
  const setModelToolTier = (model: string, tier: ToolTier | undefined) =>
    setSettings((s) => {
      const { [model]: _old, ...rest } = s.modelToolTier;
      return { ...s, modelToolTier: tier ? { ...rest, [model]: tier } : rest };
    });
  const setModelVision = (model: string, value: boolean | undefined) =>
    setSettings((s) => {
      const { [model]: _old, ...rest } = s.modelVision;
      return { ...s, modelVision: value === undefined ? rest : { ...rest, [model]: value } };
    });
  const pickModel = (model: string) => {
    update({ model });
    setStatus((s) => (s.kind === 'tested' ? { kind: 'tested', model } : s));
  };

  const save = async (event?: FormEvent): Promise<Settings | undefined> => {
    event?.preventDefault();
    const stepLimit = parseStepLimit(stepText);
    if (stepLimit === undefined) {
      setStatus({ kind: 'error', text: t('settingsStepLimitInvalid', [String(STEP_LIMIT.min), String(STEP_LIMIT.max)]) });
      return undefined;
    }
    const apiKey = await keyFor(settings);
    if (apiKey === undefined) return undefined;
    setStatus({ kind: 'busy' });
    try {
      const saved = await backgroundPort.request({ type: 'settings/save', settings: { ...settings, stepLimit, provider: { ...settings.provider, apiKey } } });
      adopt(saved);
      setStatus({ kind: 'saved' });
      return saved;
    } catch (error) {
      setStatus(failure(error));
      return undefined;
    }
  };

  const testConnection = async () => {
    const saved = await save();
    if (!saved) return;
    setStatus({ kind: 'busy' });
    try {
      setModels(await backgroundPort.request({ type: 'models/list' }));
      setStatus({ kind: 'tested', model: saved.provider.model });
    } catch (error) {
      setModels([]);
      setStatus(failure(error));
    }
  };

  const report = status.kind === 'tested' ? reportConnection(models, status.model) : undefined;
  const statusText =
    status.kind === 'busy' ? t('working')
    : status.kind === 'saved' ? t('settingsSaved')
    : status.kind === 'error' ? [status.text, status.hint].filter(Boolean).join(' ')
    : (report?.text ?? '');

  const field = 'mt-1 w-full rounded border border-line bg-surface p-2 text-sm';
  return (
    <form onSubmit={(e) => void save(e)} className="space-y-4" aria-labelledby="provider-heading">
      <h2 id="provider-heading" className="text-lg font-medium">{t('providerHeading')}</h2>
      <label className="block text-sm">
        {t('providerKind')}
        <select data-testid="provider-kind" className={field} value={provider.kind} onChange={(e) => chooseKind(ProviderKindSchema.parse(e.target.value))}>
          {ProviderKindSchema.options.map((kind) => (
            <option key={kind} value={kind}>{t(KIND_LABELS[kind])}</option>
          ))}
        </select>
      </label>
      <label className="block text-sm">
        {t('baseUrl')}
        <input data-testid="base-url" className={field} type="url" required value={provider.baseUrl} onChange={(e) => { update({ baseUrl: e.target.value }); forgetServer(); }} />
      </label>
      <ApiKeyField value={provider.apiKey} needsKey={PROVIDER_PRESETS[provider.kind].needsKey} className={field} onChange={(apiKey) => update({ apiKey })} />
      <label className="block text-sm">
        {t('model')}
        <input data-testid="model" className={field} list="model-list" value={provider.model} placeholder={t('modelPlaceholder')} onChange={(e) => update({ model: e.target.value })} />
        <datalist id="model-list">
          {models.map((m) => <option key={m.id} value={m.id} />)}
        </datalist>
      </label>
      {models.length > 0 && (
        <label className="block text-sm">
          {t('settingsModelChoice')}
          <select data-testid="model-choice" className={field} value={models.some((m) => m.id === provider.model) ? provider.model : ''} onChange={(e) => pickModel(e.target.value)}>
            <option value="" disabled>{t('settingsModelChoicePlaceholder')}</option>
            {models.map((m) => <option key={m.id} value={m.id}>{m.id}</option>)}
          </select>
        </label>
      )}
      {provider.model && (
        <label className="block text-sm">
          {t('contextWindow', provider.model)}
          <input
            data-testid="context-window"
            className={field}
            type="number"
            min={512}
            step={256}
            placeholder={t('contextWindowPlaceholder')}
            value={settings.modelContext[provider.model] ?? ''}
            onChange={(e) => setModelContext(provider.model, e.target.value)}
          />
          <span className="text-xs text-muted">{t('contextWindowHelp')}</span>
        </label>
      )}
      {provider.model && <ToolTierField model={provider.model} tier={settings.modelToolTier[provider.model]} className={field} onTier={(tier) => setModelToolTier(provider.model, tier)} />}
      {provider.model && (
        <VisionField
          model={provider.model}
          value={Object.hasOwn(settings.modelVision, provider.model) ? settings.modelVision[provider.model] : undefined}
          detected={models.find((m) => m.id === provider.model)?.vision}
          className={field}
          onChange={(value) => setModelVision(provider.model, value)}
        />
      )}
      <AgentFields mode={settings.toolCallMode} stepText={stepText} className={field} onMode={(toolCallMode) => setSettings((s) => ({ ...s, toolCallMode }))} onStepText={setStepText} />
      <PlanFields plans={settings.plans} className={field} onChange={(plans) => setSettings((s) => ({ ...s, plans }))} />
      {asking && <KeyRemovalConfirm server={stored.provider.baseUrl} onConfirm={() => asking(true)} onCancel={() => asking(false)} />}
      <div className="flex gap-2">
        <button type="submit" data-testid="save" disabled={Boolean(asking)} className="rounded bg-accent px-3 py-2 text-sm text-on-accent disabled:opacity-50">{t('save')}</button>
        <button type="button" data-testid="test-connection" disabled={Boolean(asking)} className="rounded border border-line px-3 py-2 text-sm disabled:opacity-50" onClick={() => void testConnection()}>{t('testConnection')}</button>
      </div>
      <p role="status" data-testid="settings-status" data-state={status.kind} className={status.kind === 'error' || report?.warn ? 'text-sm text-error' : 'text-sm text-muted'}>
        {statusText}
      </p>
    </form>
  );
}
