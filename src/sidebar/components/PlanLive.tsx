import { useEffect, useState } from 'react';
import type { PlanRecord, PlanStep, StepStatus } from '../../shared/plan';
import { shown, t } from '../../ui/i18n';
import { elapsedMs, progressOf, statusOf } from '../lib/plan-view';
import { usePlans } from '../stores/plans';
import { focusTab } from '../lib/focus-tab';

/** A plan that was approved: overall progress, each step's state, and Stop, Retry, Resume. */
export function PlanLive({ record }: { record: PlanRecord }) {
  const command = usePlans((s) => s.command);
  const now = useClock(record.status === 'running');
  const { ended, total } = progressOf(record);
  return (
    <div className="space-y-2">
      <div className="space-y-1">
        <div
          role="progressbar"
          data-testid="plan-progress"
          aria-label={t('planProgress', [String(ended), String(total)])}
          aria-valuemin={0}
          aria-valuemax={total}
          aria-valuenow={ended}
          className="h-1.5 w-full overflow-hidden rounded bg-line"
        >
          <div className="h-full bg-accent" style={{ width: `${total ? (100 * ended) / total : 0}%` }} />
        </div>
        <p className="text-xs text-muted">{t('planProgress', [String(ended), String(total)])}</p>
      </div>
      <ol className="space-y-2">
        {record.plan.steps.map((step) => (
          <LiveStep key={step.id} step={step} status={statusOf(record, step.id)} now={now} canRetry={record.status !== 'cancelled'} onRetry={() => void command({ type: 'plan/retry-step', planId: record.id, stepId: step.id })} />
        ))}
      </ol>
      <div className="flex gap-1 text-xs">
        {record.status === 'running' && (
          <button type="button" data-testid="plan-stop" className="rounded bg-error px-2 py-1 text-white" onClick={() => void command({ type: 'plan/stop', planId: record.id })}>
            {t('planStop')}
          </button>
        )}
        {record.status === 'interrupted' && (
          <button type="button" data-testid="plan-resume" className="rounded bg-accent px-2 py-1 text-on-accent" onClick={() => void command({ type: 'plan/resume', planId: record.id })}>
            {t('planResume')}
          </button>
        )}
      </div>
    </div>
  );
}

/** The time now, ticking each second while `running` (a running step's time grows). */
function useClock(running: boolean): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [running]);
  return running ? now : Date.now();
}

function LiveStep({ step, status, now, canRetry, onRetry }: { step: PlanStep; status: StepStatus | undefined; now: number; canRetry: boolean; onRetry(): void }) {
  const state = status?.state ?? 'waiting';
  const ms = elapsedMs(status, now);
  const reason = status?.reasonText ? shown(status.reasonText) : status?.reason;
  const action = status?.actionText ? shown(status.actionText) : status?.action;
  return (
    <li data-testid="plan-step" data-step={step.id} data-state={state} className="space-y-1 rounded border border-line p-2">
      <div className="flex items-start gap-2">
        <p data-testid="step-goal" className="flex-1 whitespace-pre-wrap break-words">{step.goal}</p>
        <span data-testid="step-state" className="shrink-0 text-xs font-medium">{t(`stepState_${state}`)}</span>
      </div>
      {reason && (state === 'failed' || state === 'skipped' || state === 'paused') && (
        <p data-testid="step-reason" className={`text-xs ${state === 'failed' ? 'text-error' : 'text-muted'}`}>
          {t(state === 'paused' ? 'planStepNeeds' : 'planStepWhy', [reason])}
        </p>
      )}
      {action && (state === 'running' || state === 'asking' || state === 'paused') && <p data-testid="step-action" className="truncate text-xs text-muted">{action}</p>}
      <div className="flex flex-wrap items-center gap-2 text-xs text-muted">
        {status?.tabId !== undefined && (
          <button type="button" data-testid="step-tab" className="rounded border border-line px-1 hover:bg-bg" title={t('tabLinkTitle')} onClick={() => void focusTab(status.tabId!)}>
            {status.site ?? t('planStepTab')}
          </button>
        )}
        {ms !== undefined && <span data-testid="step-time">{t('planStepTime', [(ms / 1000).toFixed(1)])}</span>}
      </div>
      {step.fields.length > 0 && (state === 'done' || state === 'failed' || state === 'skipped' || status?.fields) && (
        <dl data-testid="step-fields" className="grid grid-cols-[auto_1fr] gap-x-2 text-xs">
          {step.fields.map((field) => {
            const value = status?.fields?.[field.name];
            const missing = value === undefined || value === null;
            return (
              <div key={field.name} data-testid="step-field" data-field={field.name} data-missing={missing} className="contents">
                <dt className="font-mono text-muted">{field.name}</dt>
                <dd className={`break-words ${missing ? 'italic text-muted' : ''}`}>{missing ? t('planFieldMissing') : String(value)}</dd>
              </div>
            );
          })}
        </dl>
      )}
      {state === 'failed' && canRetry && (
        <button type="button" data-testid="step-retry" className="rounded border border-line px-2 py-0.5 text-xs" onClick={onRetry}>
          {t('planRetryStep')}
        </button>
      )}
    </li>
  );
}
