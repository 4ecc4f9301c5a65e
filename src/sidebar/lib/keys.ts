import type { KeyboardEvent } from 'react';

/** A textarea's key handler: Enter sends, Shift+Enter breaks the line, an IME composition is left alone. */
export function sendOnEnter(send: () => void) {
  return (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      send();
    }
  };
}
