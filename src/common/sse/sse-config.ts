export interface SseConfig {
  /** Open streams per client IP; one more is a 429 before the stream opens (D3). */
  maxPerIp: number;
  /** Bytes a client may be behind before it is disconnected (D4). */
  maxBufferBytes: number;
  /** Silence after which a `: ping` comment is sent (D4: 15 s). */
  heartbeatMs: number;
  /** A latest-state client skipping ticks this long is disconnected (D4: 30 s). */
  stallTimeoutMs: number;
}
