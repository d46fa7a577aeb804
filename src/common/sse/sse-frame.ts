/**
 * SSE wire frames. A frame is built (and JSON serialised) once and the same bytes are written
 * to every client of a stream.
 */
export interface SseFrame {
  readonly bytes: Buffer;
  /** The `id:` of the frame, for streams that replay after Last-Event-ID. */
  readonly id?: number;
}

export function dataFrame(payload: unknown, options: { event?: string; id?: number } = {}): SseFrame {
  let text = '';
  if (options.id !== undefined) text += `id: ${options.id}\n`;
  if (options.event) text += `event: ${options.event}\n`;
  // JSON.stringify never emits raw newlines, so one data line suffices.
  text += `data: ${JSON.stringify(payload)}\n\n`;
  return { bytes: Buffer.from(text, 'utf8'), id: options.id };
}

/** Several frames flushed together (e.g. one looker cycle) in a single write. */
export function batchFrames(frames: readonly SseFrame[]): SseFrame {
  return { bytes: Buffer.concat(frames.map((f) => f.bytes)) };
}

export const PING_FRAME: SseFrame = { bytes: Buffer.from(': ping\n\n', 'utf8') };

/** The the API contract section 6 response headers, exactly. */
export const SSE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'text/event-stream',
  'Cache-Control': 'no-cache',
  Connection: 'keep-alive',
  'X-Accel-Buffering': 'no',
};
