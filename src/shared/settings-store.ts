import { SettingsSchema, settingsToStore, type Settings } from './settings';
import { RECORDS, storeOf, type StoreOrArea } from './store';

export async function loadSettings(storage: StoreOrArea): Promise<Settings> {
  return storeOf(storage).read(RECORDS.settings);
}

export async function saveSettings(storage: StoreOrArea, settings: Settings, { fromOptionsPage = true }: { fromOptionsPage?: boolean } = {}): Promise<Settings> {
  const store = storeOf(storage);
  const valid = settingsToStore(await loadSettings(store), SettingsSchema.parse(settings), { fromOptionsPage });
  await store.set(RECORDS.settings, valid);
  return valid;
}
