import { create } from 'zustand';
import type { ModelInfo, UiReplyMap } from '../../shared/protocol';
import { withoutKey, type Settings } from '../../shared/settings';
import { backgroundPort, type BackgroundPort } from '../../ui/port';

export interface SettingsState {
  settings: Settings | undefined;
  /** The provider's models, as it listed them last. */
  models: ModelInfo[];
  /** Why the models could not be listed, if they could not. */
  listError: string | undefined;
  /** The tools the agent offers a model. */
  tools: UiReplyMap['tools/list'];
  /** Reads the settings, the provider's models and the tools again. */
  refresh(): Promise<void>;
}

/** What the sidebar shows of the settings: the default model, the live model list, the tools. */
export function createSettingsStore(port: BackgroundPort = backgroundPort) {
  return create<SettingsState>((set) => ({
    settings: undefined,
    models: [],
    listError: undefined,
    tools: [],
    async refresh() {
      const [settings, models, tools] = await Promise.allSettled([port.request({ type: 'settings/get' }), port.request({ type: 'models/list' }), port.request({ type: 'tools/list' })]);
      set({
        // The background sends no key here; none is kept even if one came.
        ...(settings.status === 'fulfilled' ? { settings: withoutKey(settings.value) } : {}),
        ...(tools.status === 'fulfilled' ? { tools: tools.value } : {}),
        ...(models.status === 'fulfilled'
          ? { models: models.value, listError: undefined }
          : { models: [], listError: models.reason instanceof Error ? models.reason.message : String(models.reason) }),
      });
    },
  }));
}

export const useSettings = createSettingsStore();
