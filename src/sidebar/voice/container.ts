/** Which recording format to use: Opus, in whichever container this browser records. */
export const RECORDING_TYPES = ['audio/ogg;codecs=opus', 'audio/webm;codecs=opus'] as const;

export function pickRecordingType(isTypeSupported: (type: string) => boolean): string | undefined {
  return RECORDING_TYPES.find((type) => isTypeSupported(type));
}
