// The Atom feed of published content (CONTRACT.md §19): the 50 most recently published items (first
// publication, newest first), optionally of one type, each entry's content the body as the API
// renders it (the one Markdown entry point, ContentService.renderHtml). The XML is written by `feed`
// (a maintained Atom/RSS writer, loaded on first use); titles are plain text, so they are escaped
// before going into its type="html" title.
import type { ContentRepository } from '../../storage/content-repository.js';
import type { Store } from '../../storage/db.js';
import type { UserRepository } from '../../storage/user-repository.js';
import { requireScope, type Principal } from '../auth/permissions.js';
import type { ContentService } from '../content/content.js';

export const FEED_SIZE = 50;

type FeedModule = typeof import('feed');
let feedModule: Promise<FeedModule> | undefined;
const loadFeed = () => (feedModule ??= import('feed'));

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export class AtomFeeds {
  constructor(
    private readonly store: Store,
    private readonly content: ContentRepository,
    private readonly users: UserRepository,
    private readonly service: ContentService,
    private readonly publicUrl: () => string,
  ) {}

  /** The feed's XML; published items only, for a management key and a delivery key alike. */
  async atom(principal: Principal, query: { type?: string }): Promise<string> {
    requireScope(principal, 'content:read');
    const { accountId } = principal;
    const { rows: listed } = await this.store.run((db) =>
      this.content.page(db, accountId, { filter: { status: 'published', type: query.type }, order: [{ field: 'published_at', desc: true }], limit: FEED_SIZE, offset: 0 }),
    );
    const ids = listed.map((row) => row.id);
    const [rows, authors] = await this.store.run((db) =>
      Promise.all([this.content.getMany(db, accountId, ids), this.users.names(db, accountId, [...new Set(listed.map((row) => row.author))])]),
    );
    const byId = new Map(rows.filter((row) => row.status === 'published').map((row) => [row.id, row]));
    const items = ids.map((id) => byId.get(id)).filter((row) => row !== undefined);
    const names = new Map(authors.map((a) => [a.id, a.name]));
    const base = this.publicUrl();
    const self = `${base}/v1/content/feed.atom${query.type ? `?type=${encodeURIComponent(query.type)}` : ''}`;
    const { Feed } = await loadFeed();
    const updated = items.reduce((latest, item) => (item.updated_at > latest ? item.updated_at : latest), principal.accountCreatedAt);
    const feed = new Feed({
      id: self,
      title: query.type ? `Published ${query.type} items` : 'Published content',
      link: `${base}/v1/content${query.type ? `?type=${encodeURIComponent(query.type)}` : ''}`,
      feedLinks: { atom: self },
      updated: new Date(updated),
      generator: 'Content Management Service',
      copyright: '',
    });
    for (const item of items) {
      const url = `${base}/v1/content/${item.id}`;
      feed.addItem({
        id: url,
        link: url,
        title: escapeHtml(item.title),
        date: new Date(item.updated_at),
        published: new Date(item.published_at ?? item.updated_at),
        content: await this.service.renderHtml(item),
        author: [{ name: names.get(item.author) ?? 'A former user' }],
        category: [{ name: item.type, term: item.type }],
      });
    }
    return feed.atom1();
  }
}
