import type { ModelInfo } from '../shared/protocol';
import { t } from '../ui/i18n';

/** How many of the server's model ids a "model not found" report names. */
export const LISTED_MODELS = 5;

export interface ConnectionReport {
  text: string;
  /** The server answered, but the chosen model will not work as configured. */
  warn: boolean;
}

/**
 * What a successful connection test means for the user: how many models the server has, and
 * whether the chosen default model is among them and can take native tool calls.
 */
export function reportConnection(models: readonly ModelInfo[], chosen: string): ConnectionReport {
  const found = t('connectionOk', String(models.length));
  if (!chosen) return { text: `${found} ${t('settingsChooseModel')}`, warn: false };
  const model = models.find((m) => m.id === chosen);
  if (!model) {
    const names = models.slice(0, LISTED_MODELS).map((m) => m.id).join(', ');
    const list = names ? ` ${t('settingsModelsOnServer', `${names}${models.length > LISTED_MODELS ? ', …' : ''}`)}` : '';
    return { text: `${found} ${t('settingsModelMissing', chosen)}${list}`, warn: true };
  }
  const key = model.tools === true ? 'settingsModelTools' : model.tools === false ? 'settingsModelNoTools' : 'settingsModelToolsUnknown';
  return { text: `${found} ${t(key, chosen)}`, warn: false };
}
