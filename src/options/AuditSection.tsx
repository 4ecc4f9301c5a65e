import { useCallback, useEffect, useState } from 'react';
import { auditToCsv, type AuditEntry } from '../shared/permissions';
import { t } from '../ui/i18n';
import { download } from '../ui/download';
import { backgroundPort } from '../ui/port';

type Filter = { tool: string; origin: string; decision: '' | 'allowed' | 'denied' };

/** Every tool call FoxAgent made or was refused, newest first: filterable, exportable, clearable. */
export function AuditSection() {
  const [entries, setEntries] = useState<AuditEntry[]>([]);
  const [filter, setFilter] = useState<Filter>({ tool: '', origin: '', decision: '' });

  const refresh = useCallback(async () => {
    const f = { tool: filter.tool.trim() || undefined, origin: filter.origin.trim() || undefined, decision: filter.decision || undefined };
    setEntries(await backgroundPort.request({ type: 'audit/list', filter: f }));
  }, [filter]);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  const clear = async () => {
    if (!window.confirm(t('auditClearConfirm'))) return;
    await backgroundPort.request({ type: 'audit/clear' });
    await refresh();
  };
  const field = 'rounded border border-line bg-surface p-1 text-sm';
  return (
    <section aria-labelledby="audit-heading" className="space-y-3">
      <h2 id="audit-heading" className="text-lg font-medium">{t('auditHeading')}</h2>
      <div className="flex flex-wrap items-end gap-2 text-sm">
        <label className="flex flex-col">{t('auditTool')}<input data-testid="audit-filter-tool" className={field} value={filter.tool} onChange={(e) => setFilter({ ...filter, tool: e.target.value })} /></label>
        <label className="flex flex-col">{t('ruleSite')}<input data-testid="audit-filter-origin" className={field} value={filter.origin} onChange={(e) => setFilter({ ...filter, origin: e.target.value })} /></label>
        <label className="flex flex-col">{t('auditDecision')}
          <select data-testid="audit-filter-decision" className={field} value={filter.decision} onChange={(e) => setFilter({ ...filter, decision: e.target.value as Filter['decision'] })}>
            <option value="">{t('auditAll')}</option>
            <option value="allowed">{t('auditAllowed')}</option>
            <option value="denied">{t('auditDenied')}</option>
          </select>
        </label>
        <button type="button" data-testid="audit-refresh" className="rounded border border-line px-2 py-1" onClick={() => void refresh()}>{t('auditRefresh')}</button>
        <button type="button" data-testid="audit-export-json" className="rounded border border-line px-2 py-1" onClick={() => download('foxagent-audit.json', JSON.stringify(entries, null, 2), 'application/json')}>{t('exportJson')}</button>
        <button type="button" data-testid="audit-export-csv" className="rounded border border-line px-2 py-1" onClick={() => download('foxagent-audit.csv', auditToCsv(entries), 'text/csv')}>{t('exportCsv')}</button>
        <button type="button" data-testid="audit-clear" className="rounded border border-line px-2 py-1" onClick={() => void clear()}>{t('auditClear')}</button>
      </div>
      {entries.length === 0 ? (
        <p className="text-sm text-muted">{t('auditEmpty')}</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-left text-xs [&_td]:px-1 [&_td]:py-0.5 [&_th]:px-1">
            <thead>
              <tr><th>{t('auditTime')}</th><th>{t('auditTool')}</th><th>{t('ruleSite')}</th><th>{t('auditTier')}</th><th>{t('auditDecision')}</th><th>{t('auditOutcome')}</th><th>{t('auditArgs')}</th></tr>
            </thead>
            <tbody>
              {entries.map((e) => (
                <tr key={e.id} data-testid="audit-row" data-tool={e.tool} data-decision={e.decision} data-by={e.decidedBy} data-tier={e.tier} data-outcome={e.outcome} className="border-t border-line align-top">
                  <td>{new Date(e.time).toLocaleString()}</td>
                  <td className="font-mono">{e.tool}</td>
                  <td className="break-all">{e.origin}</td>
                  <td>{e.tier}</td>
                  <td title={e.why}>{e.decision} ({e.decidedBy})</td>
                  <td>{e.outcome}{e.durationMs !== undefined ? ` · ${e.durationMs} ms` : ''}</td>
                  <td className="break-all font-mono">{JSON.stringify(e.args)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
