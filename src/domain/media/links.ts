// Signed links to private media (render=html): the record's public path with `expires` (Unix
// seconds) and `sig`, an HMAC-SHA256 under a key the service makes once and keeps in the settings
// table, so every instance signs and checks alike. A link works until MEDIA_LINK_TTL after it was made.
import type { AccountRepository } from '../../storage/account-repository.js';
import type { Store } from '../../storage/db.js';
import type { Clock } from '../ids.js';
import { SigningKey } from '../signing-key.js';

const SETTING = 'media.link_key';

export class MediaLinks {
  private readonly key: SigningKey;

  constructor(
    store: Store,
    settings: AccountRepository,
    private readonly clock: Clock,
    private readonly ttlSeconds: number,
  ) {
    this.key = new SigningKey(store, settings, SETTING);
  }

  /** `?expires=&sig=` for media `id`, valid for the TTL from now (rounded up to the minute, so pages cache). */
  async query(id: string): Promise<string> {
    const expires = Math.ceil((this.clock().getTime() / 1000 + this.ttlSeconds) / 60) * 60;
    return `expires=${expires}&sig=${await this.key.sign(`${id}:${expires}`)}`;
  }

  async valid(id: string, expires: number | undefined, sig: string | undefined): Promise<boolean> {
    if (expires === undefined || sig === undefined || expires * 1000 <= this.clock().getTime()) return false;
    return this.key.verify(`${id}:${expires}`, sig);
  }
}
