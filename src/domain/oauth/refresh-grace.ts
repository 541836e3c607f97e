// A short grace for a rotated refresh token (issue 21 P3-9, docs/oauth.md "Refresh tokens"). RFC 9700
// §4.14.2 has a used refresh token revoke its chain; but a client whose answer was lost, or that sent
// the same refresh several times at once, would lose its grant to its own retry. So for GRACE_MS after
// a rotation the *same* client presenting the *same* old token gets the answer the rotation gave —
// the same new pair, not another — and after that, reuse revokes the chain as before.
// The answer is kept for the grace only, encrypted (AES-256-GCM) under a key derived from the old
// refresh token itself: only someone presenting that token can read it; the store alone cannot.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { Store } from '../../storage/db.js';
import type { OAuthTokenRepository } from '../../storage/oauth-token-repository.js';
import type { Clock } from '../ids.js';
import { hashSecret } from './secrets.js';

/** How long after a rotation the old refresh token still gets the rotation's answer. */
export const GRACE_MS = 10_000;
/** How long a request that lost the race waits for the winner's answer to be kept. */
const WAIT_MS = 5_000;
const POLL_MS = 25;
const KIND = 'RefreshGrace';

/** Thrown by the storage adapter when a refresh token was rotated within the grace: not a replay to punish, an answer to repeat. */
export class RotatedJustNow extends Error {
  constructor() {
    super('refresh token rotated moments ago');
  }
}

/** Whether a refresh token used at `consumedAt` (ISO 8601) is still within the grace at `now`. */
export function withinGrace(consumedAt: string, now: Date): boolean {
  return now.getTime() - Date.parse(consumedAt) < GRACE_MS;
}

interface Sealed {
  client_id: string;
  iv: string;
  tag: string;
  data: string;
}

export class RefreshGrace {
  constructor(
    private readonly store: Store,
    private readonly tokens: OAuthTokenRepository,
    private readonly clock: Clock,
  ) {}

  /** Keeps the answer of the refresh that rotated `presented`, for the grace. */
  async remember(presented: string, clientId: string, answer: Record<string, unknown>): Promise<void> {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', keyOf(presented), iv);
    const data = Buffer.concat([cipher.update(JSON.stringify(answer), 'utf8'), cipher.final()]);
    const sealed: Sealed = { client_id: clientId, iv: iv.toString('base64'), tag: cipher.getAuthTag().toString('base64'), data: data.toString('base64') };
    const expiresAt = new Date(this.clock().getTime() + GRACE_MS).toISOString();
    await this.store.transaction((db) => this.tokens.upsertRecord(db, { kind: KIND, id: hashSecret(presented), payload: JSON.stringify(sealed), expires_at: expiresAt }));
  }

  /**
   * The answer the rotation of `presented` gave `clientId`, waiting a short while for a rotation
   * still under way (parallel refreshes); undefined when there is none for this client.
   */
  async replay(presented: string, clientId: string): Promise<Record<string, unknown> | undefined> {
    const id = hashSecret(presented);
    const started = Date.now();
    for (;;) {
      const row = await this.store.run((db) => this.tokens.findRecord(db, KIND, id));
      if (row && row.expires_at > this.clock().toISOString()) return open(presented, clientId, JSON.parse(row.payload) as Sealed);
      if (Date.now() - started >= WAIT_MS) return undefined;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }
}

function open(presented: string, clientId: string, sealed: Sealed): Record<string, unknown> | undefined {
  if (sealed.client_id !== clientId) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyOf(presented), Buffer.from(sealed.iv, 'base64'));
    decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
    const text = Buffer.concat([decipher.update(Buffer.from(sealed.data, 'base64')), decipher.final()]).toString('utf8');
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** The encryption key: another hash of the token than the one stored as its id. */
function keyOf(presented: string): Buffer {
  return createHash('sha256').update('cms refresh grace\0').update(presented).digest();
}
