// The authorization server's own secrets: a signing key (it publishes a key set, though it issues no
// signed token with the flows we enable) and the keys that sign its cookies. Made once and kept in
// the settings table, so every instance shares them and restarts keep them (the settings row's
// primary key decides when several instances start at once).
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { Store } from '../../storage/db.js';
import type { AccountRepository } from '../../storage/account-repository.js';
import { UniqueViolation } from '../../storage/errors.js';

const SETTING = 'oauth.server_keys';

export interface ServerKeys {
  /** Private JWKs (ES256). */
  signing: Record<string, unknown>[];
  /** Keys for the server's signed cookies. */
  cookies: string[];
}

function generate(): ServerKeys {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = privateKey.export({ format: 'jwk' });
  return {
    signing: [{ ...jwk, kid: randomBytes(9).toString('base64url'), alg: 'ES256', use: 'sig' }],
    cookies: [randomBytes(32).toString('base64url')],
  };
}

/** The stored keys, made and stored first if this store has none yet. */
export async function serverKeys(store: Store, settings: AccountRepository): Promise<ServerKeys> {
  const stored = await store.run((db) => settings.getSetting(db, SETTING));
  if (stored !== undefined) return JSON.parse(stored) as ServerKeys;
  try {
    await store.transaction((tx) => settings.markSetting(tx, SETTING, JSON.stringify(generate())));
  } catch (error) {
    // Another instance stored its keys first: use those.
    if (!(error instanceof UniqueViolation)) throw error;
  }
  return JSON.parse((await store.run((db) => settings.getSetting(db, SETTING)))!) as ServerKeys;
}
