import { useId } from 'react';
import { SettingsSchema, ToolCallModeSchema, type ToolCallMode } from '../shared/settings';
import { t } from '../ui/i18n';

const stepSchema = SettingsSchema.shape.stepLimit.unwrap();
/** The bounds the settings schema accepts, so the field and the background agree. */
export const STEP_LIMIT = { min: stepSchema.minValue ?? 1, max: stepSchema.maxValue ?? 100 };

/** The step limit the user typed, or undefined when the schema would refuse it. */
export function parseStepLimit(text: string): number | undefined {
  const parsed = stepSchema.safeParse(Number(text));
  return text.trim() !== '' && parsed.success ? parsed.data : undefined;
}

interface Props {
  mode: ToolCallMode;
  stepText: string;
  className: string;
  onMode(mode: ToolCallMode): void;
  onStepText(text: string): void;
}

/** How the agent calls tools, and how many tool calls one task may take. */
export function AgentFields({ mode, stepText, className, onMode, onStepText }: Props) {
  const modeHelp = useId();
  const stepHelp = useId();
  const bounds = [String(STEP_LIMIT.min), String(STEP_LIMIT.max)];
  return (
    <>
      <label className="block text-sm">
        {t('settingsToolMode')}
        <select data-testid="tool-call-mode" className={className} aria-describedby={modeHelp} value={mode} onChange={(e) => onMode(ToolCallModeSchema.parse(e.target.value))}>
          {ToolCallModeSchema.options.map((m) => (
            <option key={m} value={m} title={t(`settingsToolModeHelp_${m}`)}>{t(`settingsToolMode_${m}`)}</option>
          ))}
        </select>
        <span id={modeHelp} data-testid="tool-call-mode-help" className="mt-1 block text-xs text-muted">{t(`settingsToolModeHelp_${mode}`)}</span>
      </label>
      <label className="block text-sm">
        {t('settingsStepLimit')}
        <input data-testid="step-limit" className={className} type="number" inputMode="numeric" required step={1} min={STEP_LIMIT.min} max={STEP_LIMIT.max} aria-describedby={stepHelp} value={stepText} onChange={(e) => onStepText(e.target.value)} />
        <span id={stepHelp} className="mt-1 block text-xs text-muted">{t('settingsStepLimitHelp', bounds)}</span>
      </label>
    </>
  );
}
