/**
 * "Stop" said alone: it stops the running task at once, without a model call and without a
 * message. Case and punctuation do not matter; anything more ("stop the music") is a message.
 */
const STOP_WORDS = new Set(['stop', 'cancel', 'stopp', 'abbrechen']);

/** The transcript's words, lower-cased, punctuation and symbols dropped. */
function words(transcript: string): string[] {
  return transcript
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]+/gu, ' ')
    .split(/\s+/)
    .filter(Boolean);
}

export function isStopCommand(transcript: string): boolean {
  // A transcript of a lone word is short; a long one is a message whatever it says.
  if (transcript.length > 40) return false;
  const said = words(transcript);
  return said.length === 1 && STOP_WORDS.has(said[0]!);
}
