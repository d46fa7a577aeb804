/** Injection token of the shared looker-stream clock (one per process). */
export const LOOKER_STREAM_CLOCK = Symbol('LOOKER_STREAM_CLOCK');

/** Metric label and log name of the looker stream on the SSE hub. */
export const LOOKER_STREAM_NAME = 'lookers';
