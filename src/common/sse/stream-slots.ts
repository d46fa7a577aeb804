/** A held slot: release it when the stream closes. */
export interface SseSlot {
  release(): void;
}

/**
 * Counts each client IP's open streams across every instance. The hub asks for a slot before it
 * opens a stream when `shared` is true; otherwise its own in-process count is the only cap.
 * The Redis floor provides it, so the transport never imports the layer above it.
 */
export interface StreamSlots {
  readonly shared: boolean;
  /** A slot for one more stream from `ip`, or null when the IP already holds the cap. */
  acquire(ip: string): Promise<SseSlot | null>;
}

export const STREAM_SLOTS = Symbol('STREAM_SLOTS');
