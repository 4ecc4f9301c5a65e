import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { t } from '../../ui/i18n';
import { sendOnEnter } from '../lib/keys';
import { matchingTabs, mentionAt, withoutMention, type Mention } from '../lib/mention';
import { planRequest } from '../lib/plan-command';
import { useAttach } from '../stores/attach';
import { useChat } from '../stores/chat';
import { useDraft } from '../stores/draft';
import { ModelBar } from './ModelBar';
import { ALL_TABS, TabChips, TabMenu, type TabOption } from './TabMenu';
import { VoiceButton } from './VoiceButton';

/**
 * Where the user types. Enter sends, Shift+Enter breaks the line; the draft survives closing.
 * Typing @ opens a menu of the window's tabs (and "All tabs in this window"): the tabs picked are
 * attached to the message as chips, and the message is about them.
 */
export function Composer() {
  const { text, set: setText, restore } = useDraft();
  const running = useChat((s) => s.running);
  const send = useChat((s) => s.send);
  const stop = useChat((s) => s.stop);
  const { attached, open, list, attach, detach, clear } = useAttach();
  const box = useRef<HTMLTextAreaElement>(null);
  const [mention, setMention] = useState<Mention>();
  const [highlight, setHighlight] = useState(0);
  /** The Plan toggle: the next message asks for a workflow plan over several tabs. */
  const [planMode, setPlanMode] = useState(false);
  const options: TabOption[] = mention ? [ALL_TABS, ...matchingTabs(open, mention.query)] : [];

  useEffect(() => void restore(), [restore]);

  const submit = async () => {
    const typed = text.trim();
    // `/plan <request>` and the Plan toggle both ask for a workflow plan.
    const { text: message, plan } = planRequest(typed, planMode);
    if (!message || running) return;
    const tabs = attached;
    setText('');
    clear();
    // If the background could not take it, the text and the tabs come back: nothing is lost.
    if (!(await send(message, { ...(tabs.length ? { tabs } : {}), ...(plan ? { plan } : {}) }))) {
      setText(typed);
      useAttach.setState({ attached: tabs });
    } else {
      setPlanMode(false);
    }
  };

  const onChange = (value: string, caret: number) => {
    setText(value);
    const next = mentionAt(value, caret);
    if (next && !mention) void list();
    if (next?.query !== mention?.query) setHighlight(0);
    setMention(next);
  };

  const pick = (option: TabOption) => {
    if (!mention) return;
    const rest = withoutMention(text, mention);
    setText(rest.text);
    attach(option === ALL_TABS ? open : [option]);
    setMention(undefined);
    requestAnimationFrame(() => box.current?.setSelectionRange(rest.caret, rest.caret));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (mention) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        const step = event.key === 'ArrowDown' ? 1 : -1;
        setHighlight((h) => (h + step + options.length) % options.length);
        return;
      }
      if ((event.key === 'Enter' || event.key === 'Tab') && !event.shiftKey && options[highlight]) {
        event.preventDefault();
        const option = options[highlight]!;
        if (option === ALL_TABS || !option.restriction) pick(option);
        return;
      }
      if (event.key === 'Escape') {
        event.preventDefault();
        setMention(undefined);
        return;
      }
    }
    sendOnEnter(() => void submit())(event);
  };

  return (
    <div className="border-t border-line">
      <ModelBar />
      {mention && <TabMenu options={options} highlight={highlight} onPick={pick} onHover={setHighlight} />}
      {attached.length > 0 && (
        <div data-testid="composer-tabs" className="px-2 pt-2">
          <TabChips tabs={attached} onRemove={detach} />
        </div>
      )}
      <form
        className="flex items-end gap-2 p-2"
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <textarea
          ref={box}
          data-testid="composer"
          aria-label={t('composerLabel')}
          placeholder={t('composerPlaceholder')}
          rows={2}
          value={text}
          onChange={(event) => onChange(event.target.value, event.target.selectionStart)}
          onKeyDown={onKeyDown}
          onBlur={() => setMention(undefined)}
          aria-expanded={Boolean(mention)}
          aria-autocomplete="list"
          className="min-h-10 min-w-0 flex-1 resize-none rounded border border-line bg-surface p-2 text-sm"
        />
        <button
          type="button"
          data-testid="plan-toggle"
          aria-pressed={planMode}
          title={t('planToggleHelp')}
          onClick={() => setPlanMode(!planMode)}
          className={`rounded border px-2 py-2 text-xs ${planMode ? 'border-accent bg-accent text-on-accent' : 'border-line'}`}
        >
          {t('planToggle')}
        </button>
        <VoiceButton />
        {running ? (
          <button type="button" data-testid="stop" onClick={() => void stop()} className="rounded bg-error px-3 py-2 text-sm text-white">
            {t('stop')}
          </button>
        ) : (
          <button type="submit" data-testid="send" disabled={!text.trim()} className="rounded bg-accent px-3 py-2 text-sm text-on-accent disabled:opacity-50">
            {t('send')}
          </button>
        )}
      </form>
    </div>
  );
}
