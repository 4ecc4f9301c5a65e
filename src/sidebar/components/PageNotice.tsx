import { shown, t } from '../../ui/i18n';
import { usePage } from '../stores/page';

/** Before the user types: the page in front of them is one FoxAgent cannot read or act on, and why. */
export function PageNotice() {
  const page = usePage((s) => s.page);
  if (!page?.restriction) return null;
  return (
    <p role="status" data-testid="page-restricted" className="border-t border-line bg-surface px-3 py-2 text-xs text-muted">
      {t('pageRestricted', page.restrictionText ? shown(page.restrictionText) : page.restriction)}
    </p>
  );
}
