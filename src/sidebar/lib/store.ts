import browser from 'webextension-polyfill';
import { Store } from '../../shared/store';

/** The sidebar's way into extension storage: the same typed records; the background alone migrates them. */
export const pageStore = new Store(browser.storage.local, { changes: browser.storage.onChanged });
