/**
 * Voice input in real Firefox with its fake microphone (a steady tone): the permission page, a
 * recording uploaded to the scripted server's transcription endpoint (a real multipart upload of
 * a real Opus recording), the transcript sent as a task that changes a page, Stop by voice, and
 * each transcription fault shown with the recording kept until Retry gets it through.
 */
import net from 'node:net';
import { deadPort } from '../support/dead-port';
import { EXTENSION_ORIGIN, waitFor } from '../support/firefox';
import { agentHarness } from '../support/agent-harness';
import { act, finish } from '../support/page-model';
import { SidebarDriver } from '../support/sidebar-driver';
import { configureVoice, pressVoiceShortcut, recordWith, speak, voiceError, voiceState } from '../support/voice-driver';

const h = agentHarness({
  models: [{ name: 'qwen2.5:3b', tools: true, contextLength: 32768 }],
  provider: { kind: 'ollama', model: 'qwen2.5:3b', stepLimit: 12 },
});

const MODEL = 'Systran/faster-whisper-small';

beforeEach(async () => {
  await configureVoice(h.sidebar.page, { provider: 'openai-compatible', baseUrl: `${h.llm.url}/v1`, model: MODEL, sendOnStop: true, language: '' });
  h.llm.setTranscriptionRules({ model: MODEL });
});
afterEach(async () => {
  // A test that failed half-way leaves nothing behind for the next.
  await h.sidebar.page.$eval('[data-testid="voice-discard"], [data-testid="voice-dismiss"]', (el) => (el as HTMLElement).click()).catch(() => undefined);
});

test('the permission page asks for the microphone, releases it, says to go back, and closes itself', async () => {
  const page = h.track(await h.ff.openExtensionPage('voice-permission.html'));
  await waitFor(() => page.$eval('[data-testid="voice-permission"]', (el) => el.getAttribute('data-step') === 'granted'), { what: 'the grant' });
  expect(await page.$eval('[data-testid="voice-permission-status"]', (el) => el.textContent)).toBe('The microphone is allowed. Go back to the sidebar and press the voice button.');
  expect(await page.title()).toBe('Microphone for FoxAgent');
  // The grant belongs to the extension's own origin, which this page is.
  expect(await page.evaluate(() => location.href)).toBe(`${EXTENSION_ORIGIN}/voice-permission.html`);
  await page.$eval('[data-testid="voice-permission-close"]', (el) => (el as HTMLElement).click());
  // The tab is gone: its browsing context no longer answers.
  await waitFor(() => page.evaluate(() => location.href).then(() => false, () => true), { what: 'the permission tab to close' });
});

test('a spoken task: the recording is uploaded as Opus, its transcript is sent as a message, and the task changes the page', async () => {
  const page = await h.openPage('/login.html');
  const task = 'Fill in the login form with ada@example.com and sign me in';
  h.llm.scriptTranscription({ text: task });
  h.llm.script(
    act((find) => [
      { name: 'fill', arguments: { id: find('textbox', 'Email address'), text: 'ada@example.com' } },
      { name: 'fill', arguments: { id: find('textbox', 'Password'), text: 'correct horse' } },
      { name: 'click', arguments: { id: find('button', 'Sign in') } },
    ]),
    finish('Signed in as ada@example.com.'),
  );
  const approver = h.sidebar.allowEverything();
  try {
    await speak(h.sidebar, 1500);
    await h.sidebar.waitForAnswer('Signed in as ada@example.com.', 60_000);
    await h.sidebar.waitForIdle(60_000);
  } finally {
    await approver.stop();
  }
  expect(await page.$eval('#status', (el) => el.textContent)).toMatch(/^Signed in as ada@example.com/);
  expect(await h.sidebar.userTexts()).toEqual([task]);
  expect(await h.sidebar.composerValue()).toBe('');

  const [upload] = h.llm.uploads;
  expect(h.llm.uploads).toHaveLength(1);
  expect(upload!.problems).toEqual([]);
  expect(upload!.fields.model).toBe(MODEL);
  expect(String(upload!.headers['content-type'])).toMatch(/^multipart\/form-data; boundary=/);
  expect(upload!.container).toMatchObject({ codec: 'opus' });
  expect(['ogg', 'webm']).toContain(upload!.container!.container);
  // About the 1.5 s the button was on (the browser starts and stops the recorder a little apart).
  expect(upload!.container!.durationSec).toBeGreaterThan(0.8);
  expect(upload!.container!.durationSec).toBeLessThan(4);
  expect(upload!.file!.bytes.length).toBeGreaterThan(1000);
});

test('“Stop.” said while a task runs stops it: no message is sent and the model is not called for it', async () => {
  await h.openPage('/login.html');
  h.llm.script({ text: 'Still thinking about it, reading every line of the page.', chunkSize: 2, chunkDelayMs: 400 });
  await h.sidebar.send('Read the whole page slowly');
  await waitFor(() => h.sidebar.page.$('[data-testid="stop"]').then(Boolean), { what: 'the task to run' });
  await waitFor(() => h.llm.chatRequests().length > 0, { what: 'the model to be asked' });
  const calls = h.llm.chatRequests().length;
  h.llm.scriptTranscription({ text: 'Stop.' });
  await speak(h.sidebar, 800);
  await h.sidebar.waitForIdle(20_000);
  expect(await h.sidebar.userTexts()).toEqual(['Read the whole page slowly']);
  // Stopped part-way: the answer never got to its end.
  expect((await h.sidebar.assistantTexts()).join(' ')).not.toContain('every line of the page.');
  expect(h.llm.chatRequests()).toHaveLength(calls);
  expect(h.llm.uploads).toHaveLength(1);
  expect(await h.sidebar.composerValue()).toBe('');
});

test('without send-on-stop the transcript lands in the composer after the typed text, to be edited', async () => {
  await configureVoice(h.sidebar.page, { sendOnStop: false });
  await h.sidebar.page.focus('[data-testid="composer"]');
  await h.sidebar.page.type('[data-testid="composer"]', 'Note:');
  h.llm.scriptTranscription({ text: 'book a table for two' });
  await speak(h.sidebar, 800);
  await waitFor(async () => (await h.sidebar.composerValue()) === 'Note: book a table for two', { what: 'the transcript in the composer' });
  expect(h.llm.chatRequests()).toHaveLength(0);
  await h.sidebar.page.$eval('[data-testid="composer"]', (el) => {
    Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')!.set!.call(el, '');
    el.dispatchEvent(new Event('input', { bubbles: true }));
  });
});

test('hold-to-talk: Alt+V held in the sidebar records until released, then sends', async () => {
  h.llm.scriptTranscription({ text: 'Hello by key' });
  h.llm.script({ text: 'Hello back.' });
  const keyboard = h.sidebar.page.keyboard;
  const hold = async () => {
    await h.sidebar.page.focus('[data-testid="composer"]');
    await keyboard.down('Alt');
    await keyboard.down('v');
  };
  const release = async () => {
    // Still recording after the hold: only the release stops it.
    expect(await voiceState(h.sidebar)).toBe('listening');
    await keyboard.up('v');
    await keyboard.up('Alt');
  };
  await recordWith(h.sidebar, hold, release);
  await h.sidebar.waitForAnswer('Hello back.');
  expect(await h.sidebar.userTexts()).toEqual(['Hello by key']);
  // Alt+V typed nothing into the composer.
  expect(await h.sidebar.composerValue()).toBe('');
  expect(h.llm.uploads[0]!.container!.durationSec).toBeGreaterThan(0.8);
  await h.sidebar.waitForIdle();
});

test('hold-to-talk on the button: pointer down records, pointer up after the hold stops and sends', async () => {
  h.llm.scriptTranscription({ text: 'Hello by button' });
  h.llm.script({ text: 'Hello again.' });
  const pointer = (type: string) =>
    h.sidebar.page.$eval('[data-testid="voice"]', (el, t) => el.dispatchEvent(new PointerEvent(t, { bubbles: true, button: 0, pointerId: 1, isPrimary: true })), type);
  await recordWith(h.sidebar, () => pointer('pointerdown'), () => pointer('pointerup'), 1000);
  await h.sidebar.waitForAnswer('Hello again.');
  expect(await h.sidebar.userTexts()).toEqual(['Hello by button']);
  await h.sidebar.waitForIdle();
});

test('the global shortcut (Alt+Shift+V) starts recording in the sidebar, and pressed again stops it and sends', async () => {
  h.llm.scriptTranscription({ text: 'Hello by shortcut' });
  h.llm.script({ text: 'Hello from the shortcut.' });
  const shortcut = () => pressVoiceShortcut(h.ff.browser);
  await recordWith(h.sidebar, shortcut, shortcut, 1000);
  await h.sidebar.waitForAnswer('Hello from the shortcut.');
  expect(await h.sidebar.userTexts()).toEqual(['Hello by shortcut']);
  expect(h.llm.uploads).toHaveLength(1);
  await h.sidebar.waitForIdle();
  // Each press toggled once: a sidebar opened now does not start recording again.
  const another = await SidebarDriver.open(h.ff);
  try {
    await new Promise((r) => setTimeout(r, 700));
    expect(await voiceState(another)).toBe('idle');
  } finally {
    await another.page.close();
  }
});

test('a recording stops by itself at the length limit, and is sent', async () => {
  await configureVoice(h.sidebar.page, { maxSeconds: 5 });
  try {
    h.llm.scriptTranscription({ text: 'A long thought' });
    h.llm.script({ text: 'Heard you.' });
    await h.sidebar.press('[data-testid="voice"]');
    await waitFor(async () => (await voiceState(h.sidebar)) === 'listening', { what: 'recording to start' });
    const started = Date.now();
    await waitFor(async () => (await voiceState(h.sidebar)) !== 'listening', { timeoutMs: 15_000, what: 'the length limit to stop it' });
    expect(Date.now() - started).toBeGreaterThan(4500);
    await h.sidebar.waitForAnswer('Heard you.');
    expect(h.llm.uploads[0]!.container!.durationSec).toBeGreaterThan(4.5);
    expect(h.llm.uploads[0]!.container!.durationSec).toBeLessThan(6.5);
    await h.sidebar.waitForIdle();
  } finally {
    await configureVoice(h.sidebar.page, { maxSeconds: 60 });
  }
});

test('Esc cancels a recording: nothing is uploaded or sent', async () => {
  await h.sidebar.press('[data-testid="voice"]');
  await waitFor(async () => (await voiceState(h.sidebar)) === 'listening', { what: 'recording to start' });
  await h.sidebar.page.keyboard.press('Escape');
  await waitFor(async () => (await voiceState(h.sidebar)) === 'idle', { what: 'the recording to be dropped' });
  await new Promise((r) => setTimeout(r, 500));
  expect(h.llm.uploads).toHaveLength(0);
  expect(await h.sidebar.userTexts()).toEqual([]);
});

test('spoken replies: each final answer is read aloud, or, with no voice installed, that is said once', async () => {
  await configureVoice(h.sidebar.page, { spokenReplies: true });
  try {
    const voices = await h.sidebar.page.evaluate(async () => {
      if (!speechSynthesis.getVoices().length) await new Promise((r) => setTimeout(r, 1500));
      return speechSynthesis.getVoices().length;
    });
    h.llm.script({ text: 'The **first** answer.' }, { text: 'The second answer.' });
    await h.sidebar.send('One');
    await h.sidebar.waitForAnswer('The first answer.');
    await h.sidebar.waitForIdle();
    // A machine without speech voices (a bare CI image) takes the first branch.
    if (voices === 0) {
      await h.sidebar.page.waitForSelector('[data-testid="voice-no-speech"]', { timeout: 10_000 });
      expect(await h.sidebar.page.$eval('[data-testid="voice-no-speech"]', (el) => el.textContent)).toContain('no speech voice is installed');
      await h.sidebar.page.$eval('[data-testid="voice-no-speech"] button', (el) => (el as HTMLElement).click());
      await h.sidebar.send('Two');
      await h.sidebar.waitForAnswer('The second answer.');
      await h.sidebar.waitForIdle();
      await new Promise((r) => setTimeout(r, 1500));
      // Said once: not again for the second answer.
      expect(await h.sidebar.page.$('[data-testid="voice-no-speech"]')).toBeNull();
    } else {
      await waitFor(() => h.sidebar.page.evaluate(() => speechSynthesis.speaking || speechSynthesis.pending), { what: 'the answer to be read aloud' });
      // Typing stops it.
      await h.sidebar.page.type('[data-testid="composer"]', 'x');
      await waitFor(() => h.sidebar.page.evaluate(() => !speechSynthesis.speaking && !speechSynthesis.pending), { what: 'reading to stop on typing' });
    }
  } finally {
    await configureVoice(h.sidebar.page, { spokenReplies: false });
  }
});

describe('faults keep the recording', () => {
  test('a server that is not running: its message names the address, the recording is kept; once the server is up there, Retry sends the same recording', async () => {
    const port = await deadPort();
    await configureVoice(h.sidebar.page, { baseUrl: `http://127.0.0.1:${port}/v1` });
    await speak(h.sidebar);
    const fault = await voiceError(h.sidebar);
    expect(fault).toMatchObject({ code: 'voice_unreachable', kept: true, retry: true });
    expect(fault.text).toContain(`127.0.0.1:${port}`);
    expect(await h.sidebar.userTexts()).toEqual([]);
    expect(h.llm.uploads).toHaveLength(0);

    // The server comes up at that address (a plain TCP relay to the scripted server).
    const upstream = Number(new URL(h.llm.url).port);
    const relay = net.createServer((socket) => {
      const server = net.connect(upstream, '127.0.0.1');
      socket.pipe(server).pipe(socket);
      socket.on('error', () => server.destroy());
      server.on('error', () => socket.destroy());
    });
    await new Promise<void>((r) => relay.listen(port, '127.0.0.1', r));
    try {
      h.llm.scriptTranscription({ text: 'What is on this page?' });
      h.llm.script({ text: 'A login form.' });
      await h.sidebar.press('[data-testid="voice-retry"]');
      await h.sidebar.waitForAnswer('A login form.');
      expect(await h.sidebar.userTexts()).toEqual(['What is on this page?']);
      expect(h.llm.uploads).toHaveLength(1);
      expect(h.llm.uploads[0]!.problems).toEqual([]);
      expect(await h.sidebar.page.$('[data-testid="voice-error"]')).toBeNull();
      await h.sidebar.waitForIdle();
    } finally {
      await new Promise<void>((r) => relay.close(() => r()));
    }
  });

  test('a kept recording is stored: a sidebar opened later (after a close, or in another window) offers it, and Retry there sends it', async () => {
    h.llm.scriptTranscription({ fault: 'server_error' }, { text: 'Kept across sidebars' });
    h.llm.script({ text: 'Got it.' });
    await speak(h.sidebar);
    expect(await voiceError(h.sidebar)).toMatchObject({ code: 'voice_bad_response', kept: true });
    const second = await SidebarDriver.open(h.ff);
    try {
      const fault = await voiceError(second);
      expect(fault).toMatchObject({ code: 'voice_bad_response', kept: true, retry: true });
      await second.press('[data-testid="voice-retry"]');
      await second.waitForAnswer('Got it.');
      expect(await second.userTexts()).toEqual(['Kept across sidebars']);
      expect(h.llm.uploads[1]!.file!.bytes.equals(h.llm.uploads[0]!.file!.bytes)).toBe(true);
      await second.waitForIdle();
      // Sent: a sidebar opened now has nothing kept.
      const third = await SidebarDriver.open(h.ff);
      await new Promise((r) => setTimeout(r, 500));
      expect(await third.page.$('[data-testid="voice-error"]')).toBeNull();
      await third.page.close();
    } finally {
      await second.page.close();
    }
  });

  test('Retry sends the very same recording again', async () => {
    h.llm.scriptTranscription({ fault: 'server_error' }, { text: 'Summarise this page' });
    h.llm.script({ text: 'It is a sign-in form.' });
    await speak(h.sidebar);
    expect(await voiceError(h.sidebar)).toMatchObject({ code: 'voice_bad_response', kept: true, retry: true });
    await h.sidebar.press('[data-testid="voice-retry"]');
    await h.sidebar.waitForAnswer('It is a sign-in form.');
    expect(await h.sidebar.userTexts()).toEqual(['Summarise this page']);
    expect(h.llm.uploads).toHaveLength(2);
    expect(h.llm.uploads[1]!.file!.bytes.equals(h.llm.uploads[0]!.file!.bytes)).toBe(true);
    await h.sidebar.waitForIdle();
  });

  test.each([
    ['unauthorized', 'voice_unauthorized'],
    ['too_large', 'voice_too_long'],
    ['unsupported_format', 'voice_unsupported_format'],
    ['server_error', 'voice_bad_response'],
  ] as const)('%s: its own message, the recording kept with Retry', async (serverFault, code) => {
    h.llm.scriptTranscription({ fault: serverFault });
    await speak(h.sidebar);
    const fault = await voiceError(h.sidebar);
    // The recording itself was sound: the fault is the scripted one, not the server refusing the file.
    expect(h.llm.uploads.map((u) => u.problems)).toEqual([[]]);
    expect(fault).toMatchObject({ code, kept: true, retry: true });
    expect(fault.text.length).toBeGreaterThan(20);
    expect(await h.sidebar.userTexts()).toEqual([]);
  });

  test('an empty transcript is a fault of its own, not an empty message', async () => {
    h.llm.scriptTranscription({ text: '' });
    await speak(h.sidebar);
    const fault = await voiceError(h.sidebar);
    expect(h.llm.uploads.map((u) => u.problems)).toEqual([[]]);
    expect(fault).toMatchObject({ code: 'voice_empty', kept: true });
    expect(await h.sidebar.userTexts()).toEqual([]);
    await h.sidebar.press('[data-testid="voice-discard"]');
    await waitFor(async () => (await voiceState(h.sidebar)) === 'idle', { what: 'the recording to be discarded' });
    expect(await h.sidebar.page.$('[data-testid="voice-error"]')).toBeNull();
  });
});
