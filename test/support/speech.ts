/**
 * Real speech for the transcription tests: espeak-ng says a sentence into a WAV file, and
 * pocketsphinx (Debian's `pocketsphinx` with the `pocketsphinx-en-us` model) hears a 16 kHz mono
 * WAV. Without them the tests that need them say so in one line and skip; with
 * FOXAGENT_REQUIRE_CORPUS=1 (CI installs them) their absence is an error.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const MODEL = '/usr/share/pocketsphinx/model/en-us';

async function onPath(command: string): Promise<boolean> {
  return run('sh', ['-c', `command -v ${command}`]).then(() => true, () => false);
}

/** Whether espeak-ng and pocketsphinx are here; false after one clear line, or an error when CI requires them. */
export async function speechToolsPresent(): Promise<boolean> {
  const present = (await onPath('espeak-ng')) && (await onPath('pocketsphinx_continuous')) && existsSync(path.join(MODEL, 'en-us.lm.bin'));
  if (present) return true;
  const line = 'espeak-ng and pocketsphinx (with pocketsphinx-en-us) are not installed, so the real-speech transcription test cannot run. Install them with `apt-get install espeak-ng pocketsphinx pocketsphinx-en-us`.';
  if (process.env.FOXAGENT_REQUIRE_CORPUS === '1') throw new Error(`${line} (FOXAGENT_REQUIRE_CORPUS=1 requires them.)`);
  console.warn(`⚠ ${line}`);
  return false;
}

async function inTempDir<T>(work: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(tmpdir(), 'foxagent-speech-'));
  try {
    return await work(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** `sentence` spoken by espeak-ng (US English, 22 050 Hz mono WAV). */
export function speak(sentence: string): Promise<Buffer> {
  return inTempDir(async (dir) => {
    const file = path.join(dir, 'speech.wav');
    await run('espeak-ng', ['-v', 'en-us', '-s', '140', '-w', file, sentence]);
    return readFile(file);
  });
}

/** The words pocketsphinx hears in a 16 kHz mono 16-bit WAV, lower case. */
export function recognise(wav: Buffer): Promise<string> {
  return inTempDir(async (dir) => {
    const file = path.join(dir, 'upload.wav');
    await writeFile(file, wav);
    const { stdout } = await run('pocketsphinx_continuous', ['-infile', file, '-samprate', '16000', '-hmm', path.join(MODEL, 'en-us'), '-lm', path.join(MODEL, 'en-us.lm.bin'), '-dict', path.join(MODEL, 'cmudict-en-us.dict'), '-logfn', '/dev/null'], { timeout: 60_000 });
    return stdout.split('\n').map((l) => l.trim()).filter(Boolean).join(' ').toLowerCase();
  });
}
