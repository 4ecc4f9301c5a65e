/**
 * Characters that show nothing, or reorder what is shown: controls, the soft hyphen, zero-width
 * and bidirectional marks, word joiners and isolates, the BOM. Pages and models can hide text
 * with them; the URL schema trims them and the permission question strips them from page names.
 * A character-class body, for building regular expressions.
 */
export const INVISIBLE_CHARS = '\\u0000-\\u001f\\u007f-\\u009f\\u00ad\\u200b-\\u200f\\u202a-\\u202e\\u2060-\\u2069\\ufeff';
