import { useId } from 'react';
import { ToolTierSchema, type ToolTier } from '../shared/settings';
import type { MessageKey } from '../shared/i18n';
import { t } from '../ui/i18n';

const LABELS: Record<ToolTier | 'auto', MessageKey> = { auto: 'toolTierAuto', compact: 'toolTierCompact', full: 'toolTierFull' };

interface Props {
  model: string;
  /** The set chosen for this model; undefined: by the model's size. */
  tier: ToolTier | undefined;
  className: string;
  onTier(tier: ToolTier | undefined): void;
}

/** The tool set offered to one model: by its size, or the one the user picks. */
export function ToolTierField({ model, tier, className, onTier }: Props) {
  const help = useId();
  return (
    <label className="block text-sm">
      {t('toolTier', model)}
      <select data-testid="tool-tier" className={className} aria-describedby={help} value={tier ?? 'auto'} onChange={(e) => onTier(e.target.value === 'auto' ? undefined : ToolTierSchema.parse(e.target.value))}>
        {(['auto', ...ToolTierSchema.options] as const).map((option) => (
          <option key={option} value={option}>{t(LABELS[option])}</option>
        ))}
      </select>
      <span id={help} className="mt-1 block text-xs text-muted">{t('toolTierHelp')}</span>
    </label>
  );
}
