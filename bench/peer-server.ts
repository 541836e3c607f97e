// The "lean" peer for `npm run bench -- --peer`: what a plain Fastify + better-sqlite3 server doing the
// same list/get/create/update over HTTPS costs on this machine, so that every product figure can be
// read as a ratio. Deliberately plain, not crippled: logging off, Fastify's own JSON-schema
// validation of bodies and queries, prepared statements, WAL with synchronous=FULL like the product,
// the API key checked by one in-memory lookup. None of the product's features (no events, revisions,
// rate limits, caches, webhooks, search, metrics). Run as transpiled JS by bench/peer.ts.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { ulid } from 'ulid';

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};

const db = new Database(env('PEER_DB_FILE'));
db.pragma('journal_mode = WAL');
db.pragma('synchronous = FULL');

const LIST = 'id, title, type, status, author, created_at, updated_at';
const FULL = `${LIST}, content, published_at, version`;
const sql = {
  page: db.prepare(`SELECT ${LIST} FROM content WHERE account_id = ? ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`),
  pageFiltered: db.prepare(
    `SELECT ${LIST} FROM content WHERE account_id = ? AND type = ? AND status = ? ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
  ),
  // content_counts is kept by triggers (bench/peer.ts).
  count: db.prepare('SELECT coalesce(sum(n), 0) FROM content_counts WHERE account_id = ?').pluck(),
  countFiltered: db.prepare('SELECT coalesce(sum(n), 0) FROM content_counts WHERE account_id = ? AND type = ? AND status = ?').pluck(),
  get: db.prepare(`SELECT ${FULL} FROM content WHERE account_id = ? AND id = ?`),
  insert: db.prepare(
    'INSERT INTO content (account_id, id, title, type, content, status, author, created_at, updated_at, published_at, version) ' +
      'VALUES (@account_id, @id, @title, @type, @content, @status, @author, @created_at, @updated_at, @published_at, 1)',
  ),
  update: db.prepare(
    `UPDATE content SET title = coalesce(@title, title), type = coalesce(@type, type), content = coalesce(@content, content),
       status = coalesce(@status, status), updated_at = @now, version = version + 1,
       published_at = CASE WHEN published_at IS NULL AND coalesce(@status, status) = 'published' THEN @now ELSE published_at END
     WHERE account_id = @account_id AND id = @id RETURNING ${FULL}`,
  ),
};

// key → { account, user }: the whole of "authentication" here.
const keys = new Map(Object.entries(JSON.parse(env('PEER_KEYS')) as Record<string, { account: string; user: string }>));

const app = Fastify({
  logger: false,
  https: { cert: readFileSync(env('PEER_CERT_FILE'), 'utf8'), key: readFileSync(env('PEER_KEY_FILE'), 'utf8') },
  genReqId: () => `req_${randomUUID()}`,
});

declare module 'fastify' {
  interface FastifyRequest {
    account: string;
    user: string;
  }
}
app.decorateRequest('account', '');
app.decorateRequest('user', '');

app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
  if (request.url === '/readyz') return;
  const header = request.headers.authorization;
  const owner = header?.startsWith('Bearer ') ? keys.get(header.slice(7)) : undefined;
  if (!owner) return reply.code(401).send({ error: { code: 'unauthorized', message: 'A valid API key is required.' } });
  request.account = owner.account;
  request.user = owner.user;
});

const meta = (request: FastifyRequest, reply: FastifyReply) => ({ request_id: request.id, response_time: `${reply.elapsedTime.toFixed(2)}ms` });
const notFound = (reply: FastifyReply) => reply.code(404).send({ error: { code: 'not_found', message: 'No such content item.' } });

const TYPES = ['blog', 'manual', 'whitepaper', 'strategy'];
const fields = {
  title: { type: 'string', minLength: 1, maxLength: 200 },
  type: { type: 'string', enum: TYPES },
  content: { type: 'string' },
  status: { type: 'string', enum: ['draft', 'published'] },
};

interface ListQuery {
  type?: string;
  status?: string;
  limit: number;
  offset: number;
}
interface Fields {
  title?: string;
  type?: string;
  content?: string;
  status?: string;
}

app.get<{ Querystring: ListQuery }>('/v1/content', {
  schema: {
    querystring: {
      type: 'object',
      additionalProperties: false,
      properties: {
        type: fields.type,
        status: { type: 'string', enum: ['draft', 'published', 'archived'] },
        limit: { type: 'integer', minimum: 1, maximum: 100, default: 10 },
        offset: { type: 'integer', minimum: 0, default: 0 },
      },
    },
  },
}, async (request, reply) => {
  const { type, status, limit, offset } = request.query;
  const filtered = type !== undefined && status !== undefined;
  const data = filtered ? sql.pageFiltered.all(request.account, type, status, limit, offset) : sql.page.all(request.account, limit, offset);
  const total = (filtered ? sql.countFiltered.get(request.account, type, status) : sql.count.get(request.account)) as number;
  return { data, pagination: { total, limit, offset, has_more: offset + data.length < total }, meta: meta(request, reply) };
});

app.get<{ Params: { id: string } }>('/v1/content/:id', async (request, reply) => {
  const item = sql.get.get(request.account, request.params.id);
  return item ? { data: item, meta: meta(request, reply) } : notFound(reply);
});

app.post<{ Body: Required<Pick<Fields, 'title' | 'type' | 'content'>> & Fields }>('/v1/content', {
  schema: { body: { type: 'object', additionalProperties: false, required: ['title', 'type', 'content'], properties: fields } },
}, async (request, reply) => {
  const now = new Date().toISOString();
  const status = request.body.status ?? 'draft';
  const item = {
    id: `content_${ulid().toLowerCase()}`,
    title: request.body.title,
    type: request.body.type,
    status,
    author: request.user,
    created_at: now,
    updated_at: now,
    content: request.body.content,
    published_at: status === 'published' ? now : null,
    version: 1,
  };
  sql.insert.run({ ...item, account_id: request.account });
  return reply.code(201).header('location', `/v1/content/${item.id}`).send({ data: item, meta: meta(request, reply) });
});

app.put<{ Params: { id: string }; Body: Fields }>('/v1/content/:id', {
  schema: { body: { type: 'object', additionalProperties: false, minProperties: 1, properties: fields } },
}, async (request, reply) => {
  const { title = null, type = null, content = null, status = null } = request.body;
  const item = sql.update.get({ account_id: request.account, id: request.params.id, title, type, content, status, now: new Date().toISOString() });
  return item ? { data: item, meta: meta(request, reply) } : notFound(reply);
});

app.get('/readyz', async () => ({ status: 'ready' }));

await app.listen({ host: '127.0.0.1', port: Number(env('PORT')) });
const stop = () => void app.close().then(() => {
  db.close();
  process.exit(0);
});
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
