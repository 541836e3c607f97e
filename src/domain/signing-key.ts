// A secret the service makes once and keeps in the settings table, for HMAC-SHA256 signatures that
// every instance (and every restart) makes and checks alike: preview links, signed media links.
// The first instance to store it wins; the others read it back. A failed load (the store did not
// answer) is not kept, so the next signature tries again.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AccountRepository } from '../storage/account-repository.js';
import type { Store } from '../storage/db.js';
import { UniqueViolation } from '../storage/errors.js';

export class SigningKey {
  private key: Promise<Buffer> | undefined;

  /** `setting`: the settings row that holds the key (one per use, so one leaking signs nothing else). */
  constructor(
    private readonly store: Store,
    private readonly settings: AccountRepository,
    private readonly setting: string,
  ) {}

  /** HMAC-SHA256 of `body`, base64url. */
  async sign(body: string): Promise<string> {
    this.key ??= this.load().catch((error: unknown) => {
      this.key = undefined;
      throw error;
    });
    return createHmac('sha256', await this.key).update(body).digest('base64url');
  }

  /** Whether `signature` is this key's signature of `body` (compared in constant time). */
  async verify(body: string, signature: string): Promise<boolean> {
    const expected = Buffer.from(await this.sign(body));
    const given = Buffer.from(signature);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  private async load(): Promise<Buffer> {
    let stored = await this.store.run((db) => this.settings.getSetting(db, this.setting));
    if (stored === undefined) {
      try {
        await this.store.transaction((tx) => this.settings.markSetting(tx, this.setting, randomBytes(32).toString('base64url')));
      } catch (error) {
        if (!(error instanceof UniqueViolation)) throw error;
      }
      stored = (await this.store.run((db) => this.settings.getSetting(db, this.setting)))!;
    }
    return Buffer.from(stored, 'base64url');
  }
}
