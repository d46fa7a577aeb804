/** The `message` of the service's error body, whatever the status (kept free of the client, for workers). */
export function messageOf(body: unknown, status: number): string {
  if (body && typeof body === 'object' && 'message' in body && typeof body.message === 'string') return body.message;
  return status === 0 ? 'the service does not answer' : `the service answered ${status}`;
}
