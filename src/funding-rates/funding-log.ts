/** What a funding log line says of a failure: its class and message, never its stack. */
export function reasonOf(err: unknown): { name: string; message: string } | string {
  return err instanceof Error ? { name: err.name, message: err.message } : String(err);
}
