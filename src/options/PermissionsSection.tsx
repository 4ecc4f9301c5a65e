import { useEffect, useState, type FormEvent } from 'react';
import type { Policy, PolicyRule } from '../shared/permissions';
import { t } from '../ui/i18n';
import { backgroundPort, RequestError } from '../ui/port';

const SUBJECTS = ['tier:interact', 'tier:navigate', 'tier:sensitive', 'click', 'fill', 'select_option', 'set_checked', 'press_key', 'scroll', 'hover', 'submit_form', 'navigate', 'open_tab', 'close_tab'];
const POLICIES: Policy[] = ['allow', 'ask', 'deny'];

const subjectLabel = (subject: string) => (subject.startsWith('tier:') ? t('tierLabel', subject.slice(5)) : subject);

/** The user's permission rules — viewable, addable, revocable — and the sites marked sensitive. */
export function PermissionsSection() {
  const [rules, setRules] = useState<PolicyRule[]>([]);
  const [sites, setSites] = useState('');
  const [draft, setDraft] = useState({ origin: '', subject: 'tier:interact', policy: 'ask' as Policy });
  const [error, setError] = useState<string>();

  const run = async (action: () => Promise<void>) => {
    setError(undefined);
    try {
      await action();
    } catch (e) {
      setError(e instanceof RequestError ? e.message : String(e));
    }
  };

  useEffect(() => {
    void run(async () => {
      setRules(await backgroundPort.request({ type: 'policies/list' }));
      setSites((await backgroundPort.request({ type: 'sensitive-sites/get' })).join('\n'));
    });
  }, []);

  const add = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => setRules(await backgroundPort.request({ type: 'policies/set', ...draft, origin: draft.origin.trim() || '*' })));
  };
  const field = 'rounded border border-line bg-surface p-1 text-sm';
  return (
    <section aria-labelledby="permissions-heading" className="space-y-3">
      <h2 id="permissions-heading" className="text-lg font-medium">{t('permissionsHeading')}</h2>
      <p className="text-sm text-muted">{t('permissionsIntro')}</p>
      {error && <p role="alert" className="text-sm text-error">{error}</p>}
      {rules.length === 0 ? (
        <p data-testid="no-rules" className="text-sm text-muted">{t('noRules')}</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm [&_td]:px-1 [&_td]:py-0.5 [&_th]:px-1">
            <thead>
              <tr><th>{t('ruleSite')}</th><th>{t('ruleSubject')}</th><th>{t('rulePolicy')}</th><th /></tr>
            </thead>
            <tbody>
              {rules.map((rule) => (
                <tr key={`${rule.origin}|${rule.subject}`} data-testid="rule" data-origin={rule.origin} data-subject={rule.subject} data-policy={rule.policy}>
                  <td className="break-all">{rule.origin === '*' ? t('everySite') : rule.origin}</td>
                  <td>{subjectLabel(rule.subject)}</td>
                  <td>{t(`policy_${rule.policy}`)}</td>
                  <td>
                    <button type="button" data-testid="revoke-rule" className="rounded border border-line px-2 py-0.5" onClick={() => void run(async () => setRules(await backgroundPort.request({ type: 'policies/remove', origin: rule.origin, subject: rule.subject })))}>
                      {t('revoke')}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <form onSubmit={add} className="flex flex-wrap items-end gap-2 text-sm">
        <label className="flex flex-col">{t('ruleSite')}<input data-testid="rule-origin" className={field} placeholder="https://example.org" value={draft.origin} onChange={(e) => setDraft({ ...draft, origin: e.target.value })} /></label>
        <label className="flex flex-col">{t('ruleSubject')}
          <select data-testid="rule-subject" className={field} value={draft.subject} onChange={(e) => setDraft({ ...draft, subject: e.target.value })}>
            {SUBJECTS.map((s) => <option key={s} value={s}>{subjectLabel(s)}</option>)}
          </select>
        </label>
        <label className="flex flex-col">{t('rulePolicy')}
          <select data-testid="rule-policy" className={field} value={draft.policy} onChange={(e) => setDraft({ ...draft, policy: e.target.value as Policy })}>
            {POLICIES.map((p) => <option key={p} value={p}>{t(`policy_${p}`)}</option>)}
          </select>
        </label>
        <button type="submit" data-testid="add-rule" className="rounded bg-accent px-3 py-1 text-on-accent">{t('addRule')}</button>
      </form>
      <label className="block text-sm">
        {t('sensitiveSites')}
        <textarea data-testid="sensitive-sites" rows={3} className="mt-1 w-full rounded border border-line bg-surface p-2 font-mono text-sm" value={sites} onChange={(e) => setSites(e.target.value)} />
      </label>
      <button type="button" data-testid="save-sensitive-sites" className="rounded border border-line px-3 py-1 text-sm" onClick={() => void run(async () => setSites((await backgroundPort.request({ type: 'sensitive-sites/set', origins: sites.split('\n') })).join('\n')))}>
        {t('saveSensitiveSites')}
      </button>
    </section>
  );
}
