// API Keys: list, generate either kind — a management key (acts with its scopes) or a delivery key
// (reads published content only, for websites and apps) — shown once with a copy button, revoke
// with confirmation.
import { useState } from 'preact/hooks';
import { api, type SessionView } from '../api.js';
import { isAdmin } from '../sections.js';
import { Button, Checkboxes, Confirm, Field, Form, formatDate, Invalid, Message, PageTitle, ResourceList, Select, ShownOnce, Submit, useAction, useConfirm, useForm, useLoad, type Column } from '../components/index.js';

type KeyKind = 'management' | 'delivery';

interface ApiKey {
  id: string;
  name: string;
  kind: KeyKind;
  prefix: string;
  scopes: string[];
  user_id: string;
  created_at: string;
  last_used_at: string | null;
  expires_at: string | null;
}

interface User {
  id: string;
  email: string;
  name: string;
  role: string;
}

const SCOPE_TEXT: Record<string, string> = {
  'content:read': 'content:read — read content',
  'content:write': 'content:write — create and change content',
  'users:read': 'users:read — read users',
  'users:write': 'users:write — manage users',
  'keys:write': 'keys:write — manage API keys',
  'webhooks:write': 'webhooks:write — manage webhooks',
  'events:read': 'events:read — read events and the live channel',
};

const KINDS: [KeyKind, string][] = [
  ['management', 'Management key — acts as its user, with the scopes you choose'],
  ['delivery', 'Delivery key — reads published content only, for websites and apps'],
];

const KIND_HINT: Record<KeyKind, string> = {
  management: 'For scripts, CI, integrations and editors’ tools: it can do what its user’s role and the scopes below allow.',
  delivery:
    'For the site or app that shows your content to readers: it can only read published items (lists, items by id or slug, the Atom feed), ' +
    'never drafts, and nothing else. Its answers may be kept by public caches (a CDN, a proxy) for a minute, so it is safe to put where readers can see it.',
};

const EXPIRY: [string, string][] = [
  ['never', 'Never'],
  ['7', 'In 7 days'],
  ['30', 'In 30 days'],
  ['90', 'In 90 days'],
  ['365', 'In a year'],
  ['custom', 'On a date…'],
];

export function KeysSection({ session }: { session: SessionView }) {
  const admin = isAdmin(session.user.role);
  const keys = useLoad(() => api.page<ApiKey>('/v1/api-keys?limit=100'));
  const users = useLoad(() => (admin ? api.page<User>('/v1/users?limit=100') : Promise.resolve(undefined)));
  const [created, setCreated] = useState<{ name: string; key: string } | null>(null);
  const actions = useAction();
  const revoke = useConfirm(actions, 'revoke', async (key: ApiKey) => {
    await api.delete(`/v1/api-keys/${key.id}`);
    await keys.reload();
    return `Revoked “${key.name}”. Requests with it are refused from now on.`;
  });

  const owner = (id: string) => users.value?.data.find((u) => u.id === id);
  const columns: Column<ApiKey>[] = [
    { header: 'Name', rowHeader: true, cell: (k) => k.name },
    { header: 'Kind', cell: (k) => (k.kind === 'delivery' ? 'Delivery' : 'Management') },
    { header: 'Prefix', cell: (k) => <code>{k.prefix}…</code> },
    { header: 'Scopes', class: 'scopes', cell: (k) => k.scopes.join(', ') },
    ...(admin ? [{ header: 'User', cell: (k: ApiKey) => owner(k.user_id)?.email ?? k.user_id }] : []),
    { header: 'Created', cell: (k) => formatDate(k.created_at) },
    { header: 'Last used', cell: (k) => formatDate(k.last_used_at, 'Never') },
    { header: 'Expires', cell: (k) => (k.expires_at && Date.parse(k.expires_at) <= Date.now() ? `Expired ${formatDate(k.expires_at)}` : formatDate(k.expires_at, 'Never')) },
    {
      header: 'Actions',
      hideHeader: true,
      cell: (k) => (
        <Button kind="danger" onClick={() => revoke.ask(k)} label={`Revoke ${k.name}`}>
          Revoke
        </Button>
      ),
    },
  ];

  return (
    <>
      <PageTitle>API Keys</PageTitle>
      <p class="lead">
        A key lets a program call the API as {admin ? 'a user of your account' : 'you'}. Send it as <code>Authorization: Bearer &lt;key&gt;</code>. A{' '}
        <strong>management key</strong> does what its scopes allow; a <strong>delivery key</strong> (<code>cms_live_dlv_…</code>) only reads published
        content, for the website or app your readers use.
      </p>
      <Message {...actions.outcome} />
      {created ? (
        <ShownOnce title={`Your new key “${created.name}”`} value={created.key} what="API key" onDone={() => setCreated(null)} />
      ) : (
        <GenerateForm
          session={session}
          users={users.value?.data}
          onCreated={async (name, key) => {
            actions.say({});
            setCreated({ name, key });
            await keys.reload();
          }}
        />
      )}
      <ResourceList title={admin ? 'Keys of the account' : 'Your keys'} state={keys} what="keys" empty="No keys yet. Generate one above." caption="API keys" columns={columns} />
      {revoke.subject && (
        <Confirm title={`Revoke “${revoke.subject.name}”?`} confirmText="Revoke key" {...revoke.dialog}>
          <p>
            Programs using the key <code>{revoke.subject.prefix}…</code> get <strong>401 Unauthorized</strong> at once. This cannot be undone.
          </p>
        </Confirm>
      )}
    </>
  );
}

function GenerateForm(props: { session: SessionView; users: User[] | undefined; onCreated: (name: string, key: string) => void }) {
  const { session } = props;
  const form = useForm({ name: '', kind: 'management' as KeyKind, scopes: session.scopes, expiry: 'never', date: '', user_id: session.user.id });
  const delivery = form.values.kind === 'delivery';

  const submit = async (values: typeof form.values) => {
    const name = values.name.trim();
    if (!name) throw new Invalid('Give the key a name, such as the program that will use it.', 'name');
    if (values.kind === 'management' && values.scopes.length === 0) throw new Invalid('Choose at least one scope.');
    let expiresAt: string | undefined;
    if (values.expiry === 'custom') {
      if (!values.date) throw new Invalid('Choose the expiry date.');
      expiresAt = new Date(`${values.date}T23:59:59`).toISOString();
    } else if (values.expiry !== 'never') {
      expiresAt = new Date(Date.now() + Number(values.expiry) * 86_400_000).toISOString();
    }
    // A delivery key holds content:read, always: no scopes to send.
    const body: Record<string, unknown> = values.kind === 'delivery' ? { name, kind: 'delivery' } : { name, scopes: values.scopes };
    if (expiresAt) body.expires_at = expiresAt;
    if (values.user_id !== session.user.id) body.user_id = values.user_id;
    const reply = await api.post<ApiKey & { key: string }>('/v1/api-keys', body);
    form.reset('name');
    props.onCreated(reply.data.name, reply.data.key);
  };

  return (
    <Form form={form} title="Generate a new key" onSubmit={submit}>
      <Select label="Kind" options={KINDS} hint={KIND_HINT[form.values.kind]} {...form.bind('kind')} onValue={(value) => form.set('kind', value as KeyKind)} />
      <Field label="Name" hint={delivery ? 'Which site or app uses it, e.g. “Website” or “iOS app”.' : 'What the key is for, e.g. “CI deploys” or “reporting”.'} maxLength={100} required {...form.bind('name')} />
      {props.users && props.users.length > 1 && (
        <Select
          label="Acts as user"
          {...form.bind('user_id')}
          options={props.users.map((u) => [u.id, `${u.name} <${u.email}> (${u.role})`])}
          hint="Admins and owners can make a key for another user; it can do only what that user's role allows."
        />
      )}
      {delivery ? (
        <p class="hint">Scope: content:read, published items only. Drafts and archived items do not exist for it; any other request is refused (403).</p>
      ) : (
        <Checkboxes legend="Scopes" hint="Give the key only what it needs." options={session.scopes.map((s) => [s, SCOPE_TEXT[s] ?? s])} {...form.bind('scopes')} />
      )}
      <Select label="Expires" options={EXPIRY} {...form.bind('expiry')} name="expires_at" />
      {form.values.expiry === 'custom' && <Field label="Expiry date" type="date" min={new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)} {...form.bind('date')} />}
      <Submit busyText="Generating…">Generate key</Submit>
    </Form>
  );
}
