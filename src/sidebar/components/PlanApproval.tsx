import { useEffect, useState } from 'react';
import { PlanSchema, type Plan, type PlanRecord } from '../../shared/plan';
import { t } from '../../ui/i18n';
import { moveStep, removeStep, retabStep, rewordStep, type TabInfo } from '../lib/plan-view';
import { useAttach } from '../stores/attach';
import { usePlans } from '../stores/plans';
import { PlanStepProposal } from './PlanStepProposal';

/**
 * A proposed plan, waiting for the user: each step with its goal, its site, what it may change and
 * the fields it returns; Run, Cancel, and Edit (remove, reorder, reword, change a step's tab). Run
 * sends the edited plan when it was edited; the background checks it again and says what is wrong.
 */
export function PlanApproval({ record }: { record: PlanRecord }) {
  const command = usePlans((s) => s.command);
  const tabs = useAttach((s) => s.open);
  const listTabs = useAttach((s) => s.list);
  const tabsFailed = useAttach((s) => Boolean(s.failure));
  const [tabsListed, setTabsListed] = useState(false);
  const [draft, setDraft] = useState<Plan>(record.plan);
  const [editing, setEditing] = useState(false);
  const [busy, setBusy] = useState(false);

  // The open tabs name each step's site, and are the choices when a step's tab is changed.
  useEffect(() => void listTabs().then(() => setTabsListed(true)), [listTabs]);

  const edited = JSON.stringify(draft) !== JSON.stringify(record.plan);
  const valid = PlanSchema.safeParse(draft).success;
  const send = async (run: () => Promise<boolean>) => {
    setBusy(true);
    await run();
    setBusy(false);
  };
  // Until the tabs are listed (or when they cannot be), a step's tab is named by its id, never called closed.
  const openTabs: TabInfo[] | undefined = tabsListed && !tabsFailed ? tabs.filter((tab) => !tab.restriction) : undefined;

  return (
    <div className="space-y-2">
      <ol className="space-y-2">
        {draft.steps.map((step, i) => (
          <PlanStepProposal
            key={step.id}
            step={step}
            original={record.plan.steps.find((s) => s.id === step.id)}
            tabs={openTabs}
            editing={editing}
            first={i === 0}
            last={i === draft.steps.length - 1}
            onRemove={() => setDraft(removeStep(draft, step.id))}
            onMove={(by) => setDraft(moveStep(draft, step.id, by))}
            onGoal={(goal) => setDraft(rewordStep(draft, step.id, goal))}
            onTab={(tab) => setDraft(retabStep(draft, step.id, tab))}
          />
        ))}
      </ol>
      {record.readOnly && <p className="text-xs text-muted">{t('planReadOnly')}</p>}
      <div className="flex flex-wrap gap-1 text-xs">
        <button
          type="button"
          data-testid="plan-run"
          disabled={busy || !valid}
          className="rounded bg-accent px-2 py-1 text-on-accent disabled:opacity-50"
          onClick={() => void send(() => command({ type: 'plan/run', planId: record.id, ...(edited ? { plan: draft } : {}) }))}
        >
          {t('planRun')}
        </button>
        <button type="button" data-testid="plan-edit" aria-pressed={editing} className="rounded border border-line px-2 py-1" onClick={() => setEditing(!editing)}>
          {editing ? t('planEditDone') : t('planEdit')}
        </button>
        {edited && (
          <button type="button" data-testid="plan-undo-edits" className="rounded border border-line px-2 py-1" onClick={() => setDraft(record.plan)}>
            {t('planUndoEdits')}
          </button>
        )}
        <button type="button" data-testid="plan-cancel" disabled={busy} className="rounded border border-line px-2 py-1 disabled:opacity-50" onClick={() => void send(() => command({ type: 'plan/cancel', planId: record.id }))}>
          {t('cancel')}
        </button>
      </div>
    </div>
  );
}
