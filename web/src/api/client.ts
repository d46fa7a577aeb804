import createClient from 'openapi-fetch';
import type { components, paths } from './schema';
import { messageOf } from './client-errors';
import { readToken } from '../lib/token';

export { messageOf } from './client-errors';

/** Every request and response type comes from openapi.json: a changed contract breaks the build. */
export type Schemas = components['schemas'];

export const api = createClient<paths>({ baseUrl: window.location.origin });

/** With AUTH_MODE=token the service wants the bearer token on every call; read per request (it may change). */
api.use({
  onRequest({ request }) {
    const token = readToken();
    if (token) request.headers.set('authorization', `Bearer ${token}`);
    return request;
  },
});

/** An error the service answered, carrying its `message` (or why no answer came). */
export class ApiError extends Error {
  constructor(message: string, readonly status: number) {
    super(message);
  }
}

interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** Awaits an openapi-fetch call and answers its data, or throws an ApiError with the API's message. */
export async function call<T>(request: Promise<Answer<T>>): Promise<T> {
  let answer: Answer<T>;
  try {
    answer = await request;
  } catch {
    throw new ApiError(messageOf(null, 0), 0);
  }
  if (!answer.response.ok || answer.data === undefined) throw new ApiError(messageOf(answer.error, answer.response.status), answer.response.status);
  return answer.data;
}

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
