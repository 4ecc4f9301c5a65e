/**
 * Voice input in real Firefox ESR with its fake microphone, the scripted server answering at
 * once: the time from the stop (the end of speech) to the transcript shown as a sent message,
 * next to a typed message's time from Enter to the same point (the baseline, same run); and the
 * recording's bytes per second, next to the 16 kHz mono PCM16 WAV a whisper.cpp server takes.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'puppeteer-core';
import { launchFirefox, waitFor } from '../test/support/firefox';
import { startLlmServer } from '../test/support/llm-server';
import { configure, SidebarDriver } from '../test/support/sidebar-driver';
import { configureVoice, voiceState } from '../test/support/voice-driver';
import { fmt, printTable, stats } from './lib';

const ROUNDS = 15;
const WARMUP = 2;
const SPEAK_MS = 1000;
const WAV_16K_MONO_BYTES_PER_SEC = 16_000 * 2;

/**
 * Clicks `selector` (or submits the composer) and measures, in the page, the milliseconds until
 * one more user message is shown.
 */
function timeToMessage(page: Page, how: { click: string } | { type: string }): Promise<number> {
  return page.evaluate(async (h) => {
    const count = () => document.querySelectorAll('[data-testid="message-user"]').length;
    const before = count();
    const shown = new Promise<number>((resolve) => {
      const observer = new MutationObserver(() => {
        if (count() > before) {
          observer.disconnect();
          resolve(performance.now());
        }
      });
      observer.observe(document.body, { childList: true, subtree: true });
    });
    let started: number;
    if ('click' in h) {
      started = performance.now();
      (document.querySelector(h.click) as HTMLElement).click();
    } else {
      const area = document.querySelector('[data-testid="composer"]') as HTMLTextAreaElement;
      Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')!.set!.call(area, h.type);
      area.dispatchEvent(new Event('input', { bubbles: true }));
      await new Promise((r) => setTimeout(r, 50));
      started = performance.now();
      (document.querySelector('[data-testid="send"]') as HTMLElement).click();
    }
    return (await shown) - started;
  }, how);
}

async function main() {
  const extensionDir = path.resolve(process.cwd(), process.env.FOXAGENT_DIST || 'dist');
  if (!existsSync(path.join(extensionDir, 'manifest.json'))) throw new Error('Build first: npm run build');
  const [firefox, llm] = await Promise.all([launchFirefox({ extensionDir }), startLlmServer({ models: [{ name: 'qwen2.5:3b', tools: true, contextLength: 32768 }], lifetimeMs: 20 * 60_000 })]);
  try {
    const sidebar = await SidebarDriver.open(firefox);
    await configure(sidebar.page, { kind: 'ollama', baseUrl: llm.url, model: 'qwen2.5:3b' });
    await configureVoice(sidebar.page, { provider: 'openai-compatible', baseUrl: `${llm.url}/v1`, model: 'whisper-1', sendOnStop: true });
    llm.setFallback({ text: 'OK.' });
    llm.setTranscriptionFallback({ text: 'What is on this page?' });
    const spoken: number[] = [];
    const typed: number[] = [];
    for (let round = 0; round < WARMUP + ROUNDS; round++) {
      await sidebar.newChat();
      await waitFor(async () => (await voiceState(sidebar)) === 'idle', { what: 'the voice button' });
      await sidebar.press('[data-testid="voice"]');
      await waitFor(async () => (await voiceState(sidebar)) === 'listening', { what: 'recording' });
      await new Promise((r) => setTimeout(r, SPEAK_MS));
      const voiceMs = await timeToMessage(sidebar.page, { click: '[data-testid="voice"]' });
      await sidebar.waitForIdle();
      await sidebar.newChat();
      const typedMs = await timeToMessage(sidebar.page, { type: 'What is on this page?' });
      await sidebar.waitForIdle();
      if (round >= WARMUP) {
        spoken.push(voiceMs);
        typed.push(typedMs);
      }
    }
    const uploads = llm.uploads.slice(WARMUP);
    const perSecond = uploads.map((u) => u.file!.bytes.length / u.container!.durationSec);
    const container = uploads[0]?.container?.container ?? '?';
    const v = stats(spoken);
    const t = stats(typed);
    printTable(`From the stop to the message shown, real Firefox, scripted server answering at once, ${ROUNDS} of each after ${WARMUP} untimed, same run`, [
      { what: 'typed message: Send to shown (baseline)', median: fmt(t.median), p95: fmt(t.p95) },
      { what: `spoken message: stop to shown (record, upload, transcribe, send)`, median: fmt(v.median), p95: fmt(v.p95) },
    ]);
    const b = stats(perSecond);
    printTable(`Recorded audio size, ${uploads.length} recordings of about ${SPEAK_MS / 1000} s (Firefox's fake microphone: a tone)`, [
      { what: '16 kHz mono PCM16 WAV (baseline)', 'bytes per second': WAV_16K_MONO_BYTES_PER_SEC, 'vs WAV': '1.00' },
      { what: `recording (${container}, Opus), median`, 'bytes per second': Math.round(b.median), 'vs WAV': (b.median / WAV_16K_MONO_BYTES_PER_SEC).toFixed(2) },
    ]);
  } finally {
    await firefox.close().catch(() => undefined);
    await llm.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
