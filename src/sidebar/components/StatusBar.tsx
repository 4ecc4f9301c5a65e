import { t } from '../../ui/i18n';
import { useChat } from '../stores/chat';

/** What the agent is doing: the mode of this turn, step n of the limit, and the last action. */
export function StatusBar() {
  const status = useChat((s) => s.status);
  const intent = useChat((s) => s.conversation?.messages.findLast((m) => m.role === 'user')?.intent);
  if (!status?.running || !status.stepLimit) return null;
  return (
    <div role="status" data-testid="agent-status" className="flex gap-2 border-t border-line px-3 py-1 text-xs text-muted">
      {intent && <span data-testid="agent-mode" className="font-medium">{t(`mode_${intent.kind === 'action' ? 'agent' : 'answer'}`)}</span>}
      <span>{t('stepOf', [String(status.step), String(status.stepLimit)])}</span>
      {status.toolMode === 'xml' && <span>{t('textToolModeShort')}</span>}
      {status.toolMode === 'constrained' && <span>{t('constrainedToolModeShort')}</span>}
      {status.lastAction && <span className="truncate">{status.lastAction}</span>}
      {status.toolTier === 'compact' && <span data-testid="agent-tool-tier">{t('compactToolTierShort')}</span>}
    </div>
  );
}
