/**
 * Whether the chosen model reads images, for servers that do not say (most OpenAI-compatible
 * ones): as detected (the server, else the known-models table), or set by the user for that
 * model. Only models that read images are offered screenshots of pages.
 */
import { t } from '../ui/i18n';

type Choice = 'detected' | 'yes' | 'no';

export function VisionField({ model, value, detected, className, onChange }: { model: string; value: boolean | undefined; detected: boolean | undefined; className: string; onChange(value: boolean | undefined): void }) {
  const choice: Choice = value === undefined ? 'detected' : value ? 'yes' : 'no';
  const detectedText = detected === undefined ? t('visionDetectedUnknown') : detected ? t('visionDetectedYes') : t('visionDetectedNo');
  const choose = (next: Choice) => onChange(next === 'detected' ? undefined : next === 'yes');
  return (
    <label className="block text-sm">
      {t('visionLabel', model)}
      <select data-testid="model-vision" className={className} value={choice} onChange={(e) => choose(e.target.value as Choice)}>
        <option value="detected">{t('visionAsDetected', detectedText)}</option>
        <option value="yes">{t('visionYes')}</option>
        <option value="no">{t('visionNo')}</option>
      </select>
      <span className="text-xs text-muted">{t('visionHelp')}</span>
    </label>
  );
}
