/**
 * The words for a kind of page element in the user's language, for permission questions and the
 * timeline. Roles and tags a catalogue has a word for are worded; any other shows as it is.
 */
import { say, type Localized, type MessageKey } from '../shared/i18n';

const WORDS: Record<string, MessageKey> = {
  button: 'roleButton',
  link: 'roleLink',
  a: 'roleLink',
  textbox: 'roleTextbox',
  textarea: 'roleTextbox',
  searchbox: 'roleSearchbox',
  checkbox: 'roleCheckbox',
  radio: 'roleRadio',
  switch: 'roleSwitch',
  combobox: 'roleCombobox',
  select: 'roleCombobox',
  listbox: 'roleListbox',
  option: 'roleOption',
  menuitem: 'roleMenuitem',
  tab: 'roleTab',
  slider: 'roleSlider',
  spinbutton: 'roleSpinbutton',
  form: 'roleForm',
};

/** A role or tag (already reduced to a plain word) as the user's language says it. */
export function elementKind(word: string): Localized | string {
  const key = Object.hasOwn(WORDS, word) ? WORDS[word] : undefined;
  return key ? say(key) : word;
}
