/**
 * A recording as 16 kHz mono 16-bit WAV, converted in the background page (MV2 pages have Web
 * Audio): the browser decodes the Opus/WAV, an OfflineAudioContext at 16 kHz with one channel
 * renders it (resampling and mixing the channels down), and the samples are encoded as PCM.
 */
import { undecodable } from './errors';
import type { AudioFile } from './request';
import { encodeWav, resampledLength, WHISPER_RATE } from './wav';

export async function toWhisperWav(audio: AudioFile): Promise<Uint8Array<ArrayBuffer>> {
  let decoded: AudioBuffer;
  try {
    decoded = await new OfflineAudioContext(1, 1, WHISPER_RATE).decodeAudioData(audio.bytes.slice().buffer);
  } catch {
    throw undecodable();
  }
  const target = new OfflineAudioContext(1, resampledLength(decoded.length, decoded.sampleRate, WHISPER_RATE), WHISPER_RATE);
  const source = target.createBufferSource();
  source.buffer = decoded;
  source.connect(target.destination);
  source.start();
  const rendered = await target.startRendering();
  return encodeWav(rendered.getChannelData(0), WHISPER_RATE);
}
