import { useId } from 'react';
import type { PlanStep, StepTab } from '../../shared/plan';
import { t } from '../../ui/i18n';
import { originOf, type TabInfo } from '../lib/plan-view';
import { StepSite } from './StepSite';

interface Props {
  step: PlanStep;
  /** The step as the planner proposed it (its tab stays a choice after the user picks another). */
  original: PlanStep | undefined;
  /** The open tabs; undefined while they are not known. */
  tabs: readonly TabInfo[] | undefined;
  editing: boolean;
  first: boolean;
  last: boolean;
  onRemove(): void;
  onMove(by: -1 | 1): void;
  onGoal(goal: string): void;
  onTab(tab: StepTab): void;
}

/** A step of a proposed plan; while editing, with its controls. */
export function PlanStepProposal({ step, original, tabs, editing, first, last, onRemove, onMove, onGoal, onTab }: Props) {
  const goalId = useId();
  const tabId = useId();
  return (
    <li data-testid="plan-step" data-step={step.id} className="space-y-1 rounded border border-line p-2">
      {editing ? (
        <label htmlFor={goalId} className="block text-xs text-muted">
          {t('planGoalLabel')}
          <textarea id={goalId} data-testid="step-goal-input" rows={2} value={step.goal} onChange={(e) => onGoal(e.target.value)} className="mt-1 w-full resize-none rounded border border-line bg-bg p-1 text-sm text-fg" />
        </label>
      ) : (
        <p data-testid="step-goal" className="whitespace-pre-wrap break-words">{step.goal}</p>
      )}
      <p className="text-xs">
        <span className="text-muted">{t('planWhere')} </span>
        <StepSite tab={step.tab} tabs={tabs} />
      </p>
      {editing && <TabChoice id={tabId} tab={step.tab} original={original?.tab} tabs={tabs ?? []} onTab={onTab} />}
      <StepMay may={step.may} />
      {step.fields.length > 0 && (
        <p data-testid="step-fields" className="text-xs text-muted">
          {t('planReturns', [step.fields.map((f) => f.name).join(', ')])}
        </p>
      )}
      {editing && (
        <div className="flex gap-1 text-xs">
          <button type="button" data-testid="step-up" disabled={first} className="rounded border border-line px-2 disabled:opacity-50" onClick={() => onMove(-1)}>{t('planMoveUp')}</button>
          <button type="button" data-testid="step-down" disabled={last} className="rounded border border-line px-2 disabled:opacity-50" onClick={() => onMove(1)}>{t('planMoveDown')}</button>
          <button type="button" data-testid="step-remove" className="rounded border border-line px-2" onClick={onRemove}>{t('planRemoveStep')}</button>
        </div>
      )}
    </li>
  );
}

/** What the step may do besides reading; a step that may change the page stands out. */
function StepMay({ may }: { may: PlanStep['may'] }) {
  if (!may.length) return <p data-testid="step-may" data-may="read" className="text-xs text-muted">{t('planMay_read')}</p>;
  return (
    <ul data-testid="step-may" data-may={may.join(' ')} className="flex flex-wrap gap-1 text-xs">
      {may.map((action) => (
        <li key={action} className={action === 'interact' ? 'rounded bg-error-bg px-1 font-semibold text-error' : 'rounded bg-user px-1'}>
          {t(`planMay_${action}`)}
        </li>
      ))}
    </ul>
  );
}

const URL_CHOICE = 'url';
const ORIGINAL_CHOICE = 'original';

/** Where the step works: one of the open tabs, an address to open, or what the planner chose. */
function TabChoice({ id, tab, original, tabs, onTab }: { id: string; tab: StepTab; original: StepTab | undefined; tabs: readonly TabInfo[]; onTab(tab: StepTab): void }) {
  const value = tab.kind === 'tab' ? `tab:${tab.tabId}` : tab.kind === 'url' ? URL_CHOICE : ORIGINAL_CHOICE;
  const choose = (choice: string) => {
    if (choice === URL_CHOICE) onTab({ kind: 'url', url: tab.kind === 'url' ? tab.url : original?.kind === 'url' ? original.url : '' });
    else if (choice === ORIGINAL_CHOICE && original) onTab(original);
    else onTab({ kind: 'tab', tabId: Number(choice.slice('tab:'.length)) });
  };
  return (
    <div className="space-y-1 text-xs">
      <label htmlFor={id} className="text-muted">{t('planTabLabel')}</label>
      <select id={id} data-testid="step-tab-select" value={value} onChange={(e) => choose(e.target.value)} className="w-full rounded border border-line bg-bg p-1">
        {original?.kind === 'from_step' && <option value={ORIGINAL_CHOICE}>{t('planSiteFromStep', [original.stepId])}</option>}
        {tab.kind === 'tab' && !tabs.some((open) => open.id === tab.tabId) && <option value={value}>{t('planSiteClosedTab')}</option>}
        {tabs.map((open) => (
          <option key={open.id} value={`tab:${open.id}`}>{`${open.title || t('planUntitledTab')} (${originOf(open.url)})`}</option>
        ))}
        <option value={URL_CHOICE}>{t('planTabUrlChoice')}</option>
      </select>
      {tab.kind === 'url' && (
        <input type="url" data-testid="step-url-input" aria-label={t('planTabUrlLabel')} placeholder="https://" value={tab.url} onChange={(e) => onTab({ kind: 'url', url: e.target.value })} className="w-full rounded border border-line bg-bg p-1" />
      )}
    </div>
  );
}
