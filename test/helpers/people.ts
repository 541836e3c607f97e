// Factories for users and API keys made through the API, the way the dashboard makes them.
import type { TestServer } from './server.js';

let sequence = 0;

/** An e-mail address no other test uses. */
export function uniqueEmail(tag = 'user'): string {
  return `${tag}-${++sequence}-${process.pid}-${Date.now()}@example.com`;
}

export interface TestUser {
  id: string;
  email: string;
  name: string;
  role: string;
  created_at: string;
  updated_at: string;
}

/** POST /v1/users as `key`; returns the created user record (`data`). */
export async function addUser(server: TestServer, key: string, role: string, fields: Record<string, unknown> = {}): Promise<TestUser> {
  const res = await server.client.post('/v1/users', { key, json: { email: uniqueEmail(role), name: `A ${role}`, role, ...fields } });
  if (res.status !== 201) throw new Error(`addUser: ${res.status} ${res.text}`);
  return res.body.data;
}

export interface CreatedKey {
  id: string;
  key: string;
  user_id: string;
  scopes: string[];
}

/** POST /v1/api-keys as `key` (user_id, scopes, expires_at as given); returns the record with the plain key. */
export async function addKey(server: TestServer, key: string, fields: Record<string, unknown> = {}): Promise<CreatedKey> {
  const res = await server.client.post('/v1/api-keys', { key, json: { name: 'test key', ...fields } });
  if (res.status !== 201) throw new Error(`addKey: ${res.status} ${res.text}`);
  return res.body.data;
}
