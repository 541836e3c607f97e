// The role × operation × scope table of CONTRACT.md §4, one test per cell, asserted over HTTPS.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Response } from './helpers/client.js';
import { addKey, addUser, uniqueEmail } from './helpers/people.js';
import { startServer, type TestAccount, type TestServer } from './helpers/server.js';
import { testStores } from './helpers/stores.js';

type Role = 'owner' | 'admin' | 'editor' | 'author' | 'viewer';
type Scope = 'content:read' | 'content:write' | 'users:read' | 'users:write' | 'keys:write' | 'webhooks:write' | 'events:read';
const ROLES: Role[] = ['owner', 'admin', 'editor', 'author', 'viewer'];

/** What each role may hold (§4), written out here rather than taken from the code under test. */
const EVERYONE: Scope[] = ['content:read', 'users:read', 'events:read', 'keys:write'];
const MAY_HOLD: Record<Role, Scope[]> = {
  viewer: EVERYONE,
  author: [...EVERYONE, 'content:write'],
  editor: [...EVERYONE, 'content:write'],
  admin: [...EVERYONE, 'content:write', 'users:write', 'webhooks:write'],
  owner: [...EVERYONE, 'content:write', 'users:write', 'webhooks:write'],
};

/** The scope each operation needs. */
const NEEDS = {
  'content.list': 'content:read',
  'content.get': 'content:read',
  'content.create': 'content:write',
  'content.create.invalid-body': 'content:write',
  'content.update.own': 'content:write',
  'content.update.other': 'content:write',
  'content.archive.own': 'content:write',
  'content.archive.other': 'content:write',
  'content.delete.own': 'content:write',
  'content.delete.other': 'content:write',
  'users.list': 'users:read',
  'users.get': 'users:read',
  'users.create.viewer': 'users:write',
  'users.create.owner': 'users:write',
  'users.create.invalid-body': 'users:write',
  'users.update.other': 'users:write',
  'users.delete.other': 'users:write',
  'keys.list': 'keys:write',
  'keys.create.own': 'keys:write',
  'keys.create.invalid-body': 'keys:write',
  'keys.revoke.own': 'keys:write',
  'keys.revoke.other': 'keys:write',
} as const satisfies Record<string, Scope>;
type Op = keyof typeof NEEDS;

/**
 * The status each role gets with a key holding every scope the role may hold. Authors change only
 * what they authored; viewers only read; admins never create owners; for a non-admin, another
 * user's key does not exist (404). An invalid body is judged only once the role may act (403 first).
 */
const EXPECTED: Record<Op, Record<Role, number>> = {
  'content.list':                { owner: 200, admin: 200, editor: 200, author: 200, viewer: 200 },
  'content.get':                 { owner: 200, admin: 200, editor: 200, author: 200, viewer: 200 },
  'content.create':              { owner: 201, admin: 201, editor: 201, author: 201, viewer: 403 },
  'content.create.invalid-body': { owner: 422, admin: 422, editor: 422, author: 422, viewer: 403 },
  'content.update.own':          { owner: 200, admin: 200, editor: 200, author: 200, viewer: 403 },
  'content.update.other':        { owner: 200, admin: 200, editor: 200, author: 403, viewer: 403 },
  'content.archive.own':         { owner: 200, admin: 200, editor: 200, author: 200, viewer: 403 },
  'content.archive.other':       { owner: 200, admin: 200, editor: 200, author: 403, viewer: 403 },
  'content.delete.own':          { owner: 204, admin: 204, editor: 204, author: 204, viewer: 403 },
  'content.delete.other':        { owner: 204, admin: 204, editor: 204, author: 403, viewer: 403 },
  'users.list':                  { owner: 200, admin: 200, editor: 200, author: 200, viewer: 200 },
  'users.get':                   { owner: 200, admin: 200, editor: 200, author: 200, viewer: 200 },
  'users.create.viewer':         { owner: 201, admin: 201, editor: 403, author: 403, viewer: 403 },
  'users.create.owner':          { owner: 201, admin: 403, editor: 403, author: 403, viewer: 403 },
  'users.create.invalid-body':   { owner: 422, admin: 422, editor: 403, author: 403, viewer: 403 },
  'users.update.other':          { owner: 200, admin: 200, editor: 403, author: 403, viewer: 403 },
  'users.delete.other':          { owner: 204, admin: 204, editor: 403, author: 403, viewer: 403 },
  'keys.list':                   { owner: 200, admin: 200, editor: 200, author: 200, viewer: 200 },
  'keys.create.own':             { owner: 201, admin: 201, editor: 201, author: 201, viewer: 201 },
  'keys.create.invalid-body':    { owner: 422, admin: 422, editor: 422, author: 422, viewer: 422 },
  'keys.revoke.own':             { owner: 204, admin: 204, editor: 204, author: 204, viewer: 204 },
  'keys.revoke.other':           { owner: 204, admin: 204, editor: 404, author: 404, viewer: 404 },
};

/** With a key lacking the scope an operation needs, every role gets this. */
const WITHOUT_SCOPE = 403;

const ERROR_CODE: Record<number, string> = { 403: 'forbidden', 404: 'not_found', 422: 'validation_failed' };

interface Actor {
  role: Role;
  userId: string;
  /** A key with every scope the role may hold. */
  full: string;
  /** Per scope, a key with every scope the role may hold but that one. */
  lacking: Record<Scope, string>;
  /** A content item this actor authored. */
  ownItem: string;
  /** More items this actor authored, one for each cell that archives or deletes one. */
  spareItems: string[];
}

interface World {
  server: TestServer;
  root: TestAccount;
  actors: Record<Role, Actor>;
  /** An item authored by the account's first owner, changed by the update cells. */
  sharedItem: string;
  /** A viewer whose name the update cells change and whose keys the revoke cells revoke. */
  target: string;
}

interface Prepared {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  json?: unknown;
  /** Checks, as the account's first owner, that the change happened exactly when the call succeeded. */
  effect?: (succeeded: boolean, res: Response) => Promise<void>;
}

let edits = 0;

/** How each operation is performed by `actor`, with fresh targets where a cell consumes one. */
const OPERATIONS: Record<Op, (w: World, actor: Actor) => Promise<Prepared>> = {
  'content.list': async () => ({ method: 'GET', path: '/v1/content', effect: onSuccess((res) => assert.ok(res.body.data.length >= 1)) }),
  'content.get': async (w) => ({
    method: 'GET',
    path: `/v1/content/${w.sharedItem}`,
    effect: onSuccess((res) => assert.equal(res.body.data.id, w.sharedItem)),
  }),
  'content.create': async (w, actor) => {
    const before = await contentTotal(w);
    return {
      method: 'POST',
      path: '/v1/content',
      json: { title: 'Matrix item', type: 'blog', content: 'Body' },
      effect: async (ok, res) => {
        assert.equal(await contentTotal(w), before + (ok ? 1 : 0));
        if (ok) assert.equal(res.body.data.author, actor.userId);
      },
    };
  },
  'content.create.invalid-body': async () => ({ method: 'POST', path: '/v1/content', json: { title: '', type: 'poem' } }),
  'content.update.own': async (w, actor) => updateTitle(w, actor.ownItem),
  'content.update.other': async (w) => updateTitle(w, w.sharedItem),
  'content.archive.own': async (w, actor) => archive(w, actor.spareItems.pop()!),
  'content.archive.other': async (w) => archive(w, await rootItem(w)),
  'content.delete.own': async (w, actor) => remove(w, actor.spareItems.pop()!),
  'content.delete.other': async (w) => remove(w, await rootItem(w)),
  'users.list': async (w) => ({
    method: 'GET',
    path: '/v1/users',
    effect: onSuccess((res) => assert.ok(res.body.data.some((u: { id: string }) => u.id === w.root.userId))),
  }),
  'users.get': async (w) => ({
    method: 'GET',
    path: `/v1/users/${w.root.userId}`,
    effect: onSuccess((res) => assert.equal(res.body.data.id, w.root.userId)),
  }),
  'users.create.viewer': async (w) => createUser(w, 'viewer'),
  'users.create.owner': async (w) => createUser(w, 'owner'),
  'users.create.invalid-body': async () => ({ method: 'POST', path: '/v1/users', json: { email: 'not an address', name: '', role: 'bogus' } }),
  'users.update.other': async (w) => {
    const name = `Renamed ${++edits}`;
    return {
      method: 'PUT',
      path: `/v1/users/${w.target}`,
      json: { name },
      effect: async (ok) => assert.equal((await asRoot(w, `/v1/users/${w.target}`)).body.data.name === name, ok),
    };
  },
  'users.delete.other': async (w) => {
    const victim = await addUser(w.server, w.root.key, 'viewer');
    return { method: 'DELETE', path: `/v1/users/${victim.id}`, effect: async (ok) => assert.equal((await asRoot(w, `/v1/users/${victim.id}`)).status, ok ? 404 : 200) };
  },
  'keys.list': async () => ({ method: 'GET', path: '/v1/api-keys', effect: onSuccess((res) => assert.ok(Array.isArray(res.body.data))) }),
  'keys.create.own': async (_w, actor) => ({
    method: 'POST',
    path: '/v1/api-keys',
    json: { name: 'Own key' },
    effect: onSuccess((res) => assert.equal(res.body.data.user_id, actor.userId)),
  }),
  'keys.create.invalid-body': async () => ({ method: 'POST', path: '/v1/api-keys', json: { name: '', scopes: ['nope'] } }),
  'keys.revoke.own': async (w, actor) => revokeKeyOf(w, actor.userId),
  'keys.revoke.other': async (w) => revokeKeyOf(w, w.target),
};

/** An effect that only checks the response of a successful call. */
function onSuccess(check: (res: Response) => void): Prepared['effect'] {
  return async (ok, res) => {
    if (ok) check(res);
  };
}

async function asRoot(w: World, path: string): Promise<Response> {
  return w.server.client.get(path, { key: w.root.key });
}

async function contentTotal(w: World): Promise<number> {
  return (await asRoot(w, '/v1/content?limit=1')).body.pagination.total;
}

async function rootItem(w: World): Promise<string> {
  return (await w.server.content(w.root.key, { title: 'Owned by the first owner' })).id as string;
}

function updateTitle(w: World, id: string): Prepared {
  const title = `Edited ${++edits}`;
  return {
    method: 'PUT',
    path: `/v1/content/${id}`,
    json: { title },
    effect: async (ok) => assert.equal((await asRoot(w, `/v1/content/${id}`)).body.data.title === title, ok),
  };
}

function archive(w: World, id: string): Prepared {
  return {
    method: 'POST',
    path: `/v1/content/${id}/archive`,
    effect: async (ok) => assert.equal((await asRoot(w, `/v1/content/${id}`)).body.data.status, ok ? 'archived' : 'draft'),
  };
}

function remove(w: World, id: string): Prepared {
  return { method: 'DELETE', path: `/v1/content/${id}`, effect: async (ok) => assert.equal((await asRoot(w, `/v1/content/${id}`)).status, ok ? 404 : 200) };
}

function createUser(w: World, role: Role): Prepared {
  const email = uniqueEmail(`new-${role}`);
  return {
    method: 'POST',
    path: '/v1/users',
    json: { email, name: 'New user', role },
    effect: async (ok, res) => {
      if (ok) assert.equal(res.body.data.role, role);
      // Only a refused call leaves the address free.
      const again = await w.server.client.post('/v1/users', { key: w.root.key, json: { email, name: 'Again', role: 'viewer' } });
      assert.equal(again.status, ok ? 409 : 201);
    },
  };
}

async function revokeKeyOf(w: World, userId: string): Promise<Prepared> {
  const victim = await addKey(w.server, w.root.key, { user_id: userId, name: 'To revoke' });
  return {
    method: 'DELETE',
    path: `/v1/api-keys/${victim.id}`,
    effect: async (ok) => assert.equal((await w.server.client.get('/v1/content?limit=1', { key: victim.key })).status, ok ? 401 : 200),
  };
}

/** A user of `role` with a full key, one key per needed scope lacking just it, and items of their own. */
async function makeActor(server: TestServer, root: TestAccount, role: Role): Promise<Actor> {
  // Created as an author so that even the viewer has an item of their own, then given the role.
  const user = await addUser(server, root.key, 'author', { name: `Matrix ${role}` });
  const temporary = await addKey(server, root.key, { user_id: user.id });
  const authored: string[] = [];
  for (let i = 0; i < 5; i++) authored.push((await server.content(temporary.key, { title: `Authored by the ${role}` })).id as string);
  if (role !== 'author') {
    const res = await server.client.put(`/v1/users/${user.id}`, { key: root.key, json: { role } });
    assert.equal(res.status, 200, res.text);
  }
  await server.client.delete(`/v1/api-keys/${temporary.id}`, { key: root.key });
  const full = await addKey(server, root.key, { user_id: user.id });
  assert.deepEqual([...full.scopes].sort(), [...MAY_HOLD[role]].sort());
  const lacking = {} as Record<Scope, string>;
  for (const scope of new Set(Object.values(NEEDS))) {
    const scopes = MAY_HOLD[role].filter((s) => s !== scope);
    lacking[scope] = (await addKey(server, root.key, { user_id: user.id, scopes })).key;
  }
  return { role, userId: user.id, full: full.key, lacking, ownItem: authored[0]!, spareItems: authored.slice(1) };
}

for (const store of testStores()) {
  describe(`authorization matrix (${store})`, () => {
    let w: World;
    before(async () => {
      const server = await startServer(store);
      const root = await server.account();
      const actors = {} as Record<Role, Actor>;
      for (const role of ROLES) actors[role] = await makeActor(server, root, role);
      const sharedItem = (await server.content(root.key, { title: 'Shared item' })).id as string;
      const target = (await addUser(server, root.key, 'viewer', { name: 'Target' })).id;
      w = { server, root, actors, sharedItem, target };
    });
    after(() => w?.server.close());

    async function cell(op: Op, role: Role, key: (actor: Actor) => string, expected: number): Promise<void> {
      const actor = w.actors[role];
      const prepared = await OPERATIONS[op](w, actor);
      const res = await w.server.client.request(prepared.method, prepared.path, { key: key(actor), json: prepared.json });
      assert.equal(res.status, expected, `${prepared.method} ${prepared.path}: ${res.text}`);
      if (ERROR_CODE[expected]) assert.equal(res.body.code, ERROR_CODE[expected]);
      await prepared.effect?.(expected < 300, res);
    }

    for (const op of Object.keys(NEEDS) as Op[]) {
      const scope = NEEDS[op];
      for (const role of ROLES) {
        const expected = EXPECTED[op][role];
        it(`${role} · ${op} · full scopes → ${expected}`, () => cell(op, role, (a) => a.full, expected));
        it(`${role} · ${op} · without ${scope} → ${WITHOUT_SCOPE}`, () => cell(op, role, (a) => a.lacking[scope], WITHOUT_SCOPE));
      }
    }
  });
}
