export interface SseConfig {
  /** Open streams per client IP; one more is a 429 before the stream opens (rules: rate-limits). */
  maxPerIp: number;
  /** Bytes a client may be behind before it is disconnected (rules: streams). */
  maxBufferBytes: number;
  /** Silence after which a `: ping` comment is sent (rules: streams; 15 s). */
  heartbeatMs: number;
  /** A latest-state client skipping ticks this long is disconnected (rules: streams; 30 s). */
  stallTimeoutMs: number;
}
