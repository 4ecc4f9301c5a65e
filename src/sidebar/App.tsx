import { useEffect } from 'react';
import browser from 'webextension-polyfill';
import { t } from '../ui/i18n';
import { Composer } from './components/Composer';
import { HandOverBar } from './components/HandOverBar';
import { ConversationList } from './components/ConversationList';
import { MessageList } from './components/MessageList';
import { Notice } from './components/Notice';
import { PageNotice } from './components/PageNotice';
import { PermissionDialog } from './components/PermissionDialog';
import { StatusBar } from './components/StatusBar';
import { backgroundPort } from '../ui/port';
import { useChat } from './stores/chat';
import { useConversations } from './stores/conversations';
import { useHandOvers } from './stores/handovers';
import { usePermissions } from './stores/permissions';
import { usePage } from './stores/page';
import { usePlans } from './stores/plans';
import { useRuns } from './stores/runs';

export function App() {
  const { load, apply, newChat, notice } = useChat();
  const toggleChats = useConversations((s) => s.toggle);
  const applyPermission = usePermissions((s) => s.apply);
  const loadPermissions = usePermissions((s) => s.load);
  const applyRuns = useRuns((s) => s.apply);
  const loadRuns = useRuns((s) => s.load);
  const applyPage = usePage((s) => s.apply);
  const loadPage = usePage((s) => s.load);
  const applyPlan = usePlans((s) => s.apply);
  const loadPlans = usePlans((s) => s.load);
  const applyHandOver = useHandOvers((s) => s.apply);
  const loadHandOvers = useHandOvers((s) => s.load);
  const conversationId = useChat((s) => s.conversation?.id);

  useEffect(() => {
    const unsubscribe = backgroundPort.onEvent((event) => {
      apply(event);
      applyPermission(event);
      applyRuns(event);
      applyPage(event);
      applyPlan(event);
      applyHandOver(event);
    });
    void load();
    // A question asked while the sidebar was closed is waiting here when it opens again.
    void loadPermissions();
    // Work started in another window, or before the sidebar opened, shows as running.
    void loadRuns().catch(() => undefined);
    void loadPage().catch(() => undefined);
    // A task handed over to the user while the sidebar was closed still waits for Continue.
    void loadHandOvers();
    return unsubscribe;
  }, [load, apply, applyPermission, loadPermissions, applyRuns, loadRuns, applyPage, loadPage, applyPlan, applyHandOver, loadHandOvers]);

  // The open chat's plans, as they are now: their cards show under their messages.
  useEffect(() => {
    if (conversationId) void loadPlans(conversationId).catch(() => undefined);
  }, [conversationId, loadPlans]);

  return (
    <div className="flex h-full flex-col">
      <header className="flex items-center gap-2 border-b border-line px-3 py-2">
        <h1 className="flex-1 text-sm font-semibold">{t('sidebarTitle')}</h1>
        <button type="button" data-testid="toggle-chats" className="rounded px-2 py-1 text-xs hover:bg-surface" onClick={toggleChats}>
          {t('chats')}
        </button>
        <button type="button" data-testid="new-chat" className="rounded px-2 py-1 text-xs hover:bg-surface" onClick={() => void newChat()}>
          {t('newChat')}
        </button>
        <button type="button" className="rounded px-2 py-1 text-xs hover:bg-surface" onClick={() => void browser.runtime.openOptionsPage()}>
          {t('openSettings')}
        </button>
      </header>
      <ConversationList />
      <MessageList />
      <StatusBar />
      {notice && <Notice error={notice} onRetry={() => void load()} />}
      <PageNotice />
      <HandOverBar />
      <Composer />
      <PermissionDialog />
    </div>
  );
}
