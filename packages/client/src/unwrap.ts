// openapi-fetch answers `{data, error, response}`; the client's helpers throw instead, so that a
// caller's happy path reads straight through and every failure is one typed CmsApiError.
import { CmsApiError } from './errors.js';

export async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) throw new CmsApiError(response.status, error, response.headers);
  return data as T;
}
