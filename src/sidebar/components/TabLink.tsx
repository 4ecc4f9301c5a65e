import { createContext, useContext, type ReactNode } from 'react';
import { t } from '../../ui/i18n';

/** How a tab link shows its tab; where none is given (rendering outside the chat), the link is its label only. */
export const TabFocusContext = createContext<((tabId: number) => void) | undefined>(undefined);

/** A link in an answer that names a tab (`foxagent:tab/<id>`): a button that shows that tab. */
export function TabLink({ tabId, children }: { tabId: number; children: ReactNode }) {
  const focus = useContext(TabFocusContext);
  if (!focus) return <>{children}</>;
  return (
    <button type="button" data-testid="tab-link" data-tab={tabId} title={t('tabLinkTitle')} className="text-accent underline" onClick={() => focus(tabId)}>
      {children}
    </button>
  );
}
