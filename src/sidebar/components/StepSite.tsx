import type { StepTab } from '../../shared/plan';
import { t } from '../../ui/i18n';
import { siteOf, type TabInfo } from '../lib/plan-view';

/** Where a step works, in words: its tab's title and origin, the address it opens, or the page an earlier step finds. */
export function StepSite({ tab, tabs }: { tab: StepTab; tabs: readonly TabInfo[] | undefined }) {
  const site = siteOf(tab, tabs);
  switch (site.kind) {
    case 'tab':
      return (
        <span data-testid="step-site">
          {site.title || t('planUntitledTab')} <span className="text-muted">({site.origin})</span>
        </span>
      );
    case 'tab-id':
      return <span data-testid="step-site">{t('planSiteTabId', [String(site.tabId)])}</span>;
    case 'closed-tab':
      return <span data-testid="step-site">{t('planSiteClosedTab')}</span>;
    case 'url':
      return (
        <span data-testid="step-site" title={site.url}>
          {t('planSiteOpens', [site.origin])}
        </span>
      );
    case 'from_step':
      return <span data-testid="step-site">{t('planSiteFromStep', [site.stepId])}</span>;
  }
}
