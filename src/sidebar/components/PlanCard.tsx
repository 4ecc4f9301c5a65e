import { t } from '../../ui/i18n';
import { usePlans } from '../stores/plans';
import { PlanApproval } from './PlanApproval';
import { PlanLive } from './PlanLive';

/**
 * A workflow plan under its assistant message: the approval card while it is proposed, then the
 * live view. Everything in it that came from a page or a model is rendered as text.
 */
export function PlanCard({ planId }: { planId: string }) {
  const record = usePlans((s) => s.byId[planId]);
  const failure = usePlans((s) => s.failures[planId]);
  if (!record) return <p data-testid="plan-card" data-status="loading" className="text-xs text-muted">{t('planLoading')}</p>;
  return (
    <section data-testid="plan-card" data-status={record.status} aria-label={record.plan.title} className="mt-2 space-y-2 rounded border border-line bg-surface p-2 text-sm">
      <h3 data-testid="plan-title" className="font-semibold">{record.plan.title}</h3>
      <p data-testid="plan-status" className="text-xs text-muted">{t(`planStatus_${record.status}`)}</p>
      {record.status === 'proposed' ? <PlanApproval key={record.id} record={record} /> : <PlanLive record={record} />}
      {failure && (
        <p role="alert" data-testid="plan-problem" className="whitespace-pre-wrap rounded border border-error/40 bg-error-bg p-2 text-xs text-error">
          {failure}
        </p>
      )}
    </section>
  );
}
