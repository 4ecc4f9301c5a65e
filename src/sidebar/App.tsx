import { useEffect } from 'react';
import browser from 'webextension-polyfill';
import { t } from '../ui/i18n';
import { Composer } from './components/Composer';
import { MessageList } from './components/MessageList';
import { Notice } from './components/Notice';
import { backgroundPort } from './lib/port';
import { useChat } from './stores/chat';

export function App() {
  const { load, apply, newChat, notice } = useChat();

  useEffect(() => {
    const unsubscribe = backgroundPort.onEvent(apply);
    void load();
    return unsubscribe;
  }, [load, apply]);

  return (
    <div className="flex h-full flex-col">
      <header className="flex items-center gap-2 border-b border-line px-3 py-2">
        <h1 className="flex-1 text-sm font-semibold">{t('sidebarTitle')}</h1>
        <button type="button" className="rounded px-2 py-1 text-xs hover:bg-surface" onClick={() => void newChat()}>
          {t('newChat')}
        </button>
        <button type="button" className="rounded px-2 py-1 text-xs hover:bg-surface" onClick={() => void browser.runtime.openOptionsPage()}>
          {t('openSettings')}
        </button>
      </header>
      <MessageList />
      {notice && <Notice error={notice} onRetry={() => void load()} />}
      <Composer />
    </div>
  );
}
