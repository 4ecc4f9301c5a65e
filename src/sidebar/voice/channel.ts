/**
 * The permission page tells the sidebar on this BroadcastChannel (both are pages of the
 * extension's origin) that the microphone is now allowed.
 */
export const VOICE_CHANNEL = 'foxagent-voice';
