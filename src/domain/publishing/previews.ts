// Preview links (CONTRACT.md §19): a signed, expiring link that shows an item — a draft, usually — as
// it is when the link is opened, without a key. The link carries the account, the item and its end,
// signed with HMAC-SHA256 under a key the service makes once and keeps in the settings table (so
// every instance, and every restart, accepts the links of the others); nothing is stored per link.
// A deleted item's link shows nothing: the item is read afresh each time the link is opened.
import type { AccountRepository } from '../../storage/account-repository.js';
import type { ContentRepository, ContentRow } from '../../storage/content-repository.js';
import type { Store } from '../../storage/db.js';
import { requireScope, type Principal } from '../auth/permissions.js';
import { notFound } from '../errors.js';
import type { Clock } from '../ids.js';
import { SigningKey } from '../signing-key.js';

const SETTING = 'publishing.preview_key';
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{1,200}\.[A-Za-z0-9_-]{43}$/;

interface Claims {
  /** Account id. */
  a: string;
  /** Content id. */
  c: string;
  /** When the link stops working, ms since the epoch. */
  e: number;
}

export type OpenedPreview = { item: ContentRow; expiresAt: string } | { refused: 'unknown' | 'expired' };

export class PreviewLinks {
  private readonly key: SigningKey;

  constructor(
    private readonly store: Store,
    settings: AccountRepository,
    private readonly content: ContentRepository,
    private readonly clock: Clock,
    private readonly ttlSeconds: number,
    private readonly publicUrl: () => string,
  ) {
    this.key = new SigningKey(store, settings, SETTING);
  }

  /** A link to item `id` that works for PREVIEW_TTL. Making one is sharing the item: it takes content:write. */
  async create(principal: Principal, id: string): Promise<{ url: string; expires_at: string }> {
    requireScope(principal, 'content:write');
    const row = await this.store.run((db) => this.content.get(db, principal.accountId, id));
    if (!row) throw notFound('Content item');
    const expires = new Date(this.clock().getTime() + this.ttlSeconds * 1000);
    const body = Buffer.from(JSON.stringify({ a: principal.accountId, c: id, e: expires.getTime() } satisfies Claims)).toString('base64url');
    const token = `${body}.${await this.key.sign(body)}`;
    return { url: `${this.publicUrl()}/preview/${token}`, expires_at: expires.toISOString() };
  }

  /** The item a link shows now; `unknown` for a link this service did not sign or whose item is gone, `expired` after its end. */
  async open(token: string): Promise<OpenedPreview> {
    if (!TOKEN_SHAPE.test(token)) return { refused: 'unknown' };
    const [body, signature] = token.split('.') as [string, string];
    if (!(await this.key.verify(body, signature))) return { refused: 'unknown' };
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Claims;
    if (claims.e <= this.clock().getTime()) return { refused: 'expired' };
    const item = await this.store.run((db) => this.content.get(db, claims.a, claims.c));
    return item ? { item, expiresAt: new Date(claims.e).toISOString() } : { refused: 'unknown' };
  }
}
