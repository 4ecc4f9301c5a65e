/** What is read aloud of an answer, and a spoken "stop". */
import { speechChunks, textForSpeech } from '../../../src/sidebar/voice/speech-text';
import { isStopCommand } from '../../../src/sidebar/voice/stop-command';

test('Markdown is stripped: headings, emphasis, lists and quotes become plain sentences', () => {
  const answer = '# Results\n\nThe **cheapest** flight is *Lufthansa* at ~~300~~ 250 €.\n\n- Leaves at 9:00\n- Arrives at 11:30\n\n> Prices change daily';
  expect(textForSpeech(answer)).toBe('Results. The cheapest flight is Lufthansa at 300 250 €. Leaves at 9:00. Arrives at 11:30. Prices change daily.');
});

test('code blocks are skipped; inline code is read as its text', () => {
  const answer = 'Run this:\n\n```bash\nrm -rf build && npm run build\n```\n\nThen open `dist/index.html`.';
  expect(textForSpeech(answer)).toBe('Run this: Then open dist/index.html.');
});

test('links are read as their text, never their address', () => {
  expect(textForSpeech('See [the docs](https://example.com/very/long/path?q=1) and [**this page**](https://example.org).')).toBe('See the docs and this page.');
});

test('a table is read row by row, cells joined', () => {
  expect(textForSpeech('| Name | Price |\n|---|---|\n| Tea | 3 € |\n| Cake | 4 € |')).toBe('Name, Price. Tea, 3 €. Cake, 4 €.');
});

test('an answer that is only code says nothing', () => {
  expect(textForSpeech('```\nconst x = 1;\n```')).toBe('');
});

test('a long hostile answer is handled in linear time', () => {
  const hostile = '['.repeat(100_000) + '*'.repeat(100_000) + '`'.repeat(50_000);
  const started = Date.now();
  textForSpeech(hostile);
  expect(Date.now() - started).toBeLessThan(3000);
});

test('speech is cut into utterances at sentence ends, none longer than the limit', () => {
  const chunks = speechChunks('One two three. Four five six! Seven eight nine? Ten.', 20);
  expect(chunks).toEqual(['One two three.', 'Four five six!', 'Seven eight nine?', 'Ten.']);
  expect(speechChunks('Short. Also short.', 240)).toEqual(['Short. Also short.']);
  const long = speechChunks('a'.repeat(500), 240);
  expect(long.map((c) => c.length)).toEqual([240, 240, 20]);
  expect(speechChunks('')).toEqual([]);
});

test.each(['stop', 'Stop.', 'STOP!', ' cancel ', 'Cancel?', 'Stopp', 'abbrechen.', '„Abbrechen!“'])('“%s” alone stops the task', (said) => {
  expect(isStopCommand(said)).toBe(true);
});

test.each(['stop the music', 'please stop', 'stopping', 'cancel my order', 'Don’t stop', '', '...', 'stop stop'])('“%s” is a message, not a stop', (said) => {
  expect(isStopCommand(said)).toBe(false);
});
