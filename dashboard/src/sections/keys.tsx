// API Keys: list, generate (shown once, with a copy button), revoke with confirmation.
import { useState } from 'preact/hooks';
import { api, describeError, type SessionView } from '../api.js';
import { isAdmin } from '../sections.js';
import { Button, Checkboxes, Confirm, Field, formatDate, Loading, Message, PageTitle, Select, ShownOnce, useLoad } from '../ui.js';

interface ApiKey {
  id: string;
  name: string;
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
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ error?: string; success?: string }>({});

  const owner = (id: string) => users.value?.data.find((u) => u.id === id);

  const revoke = async (yes: boolean) => {
    if (!yes || !revoking) return setRevoking(null);
    setBusy(true);
    try {
      await api.delete(`/v1/api-keys/${revoking.id}`);
      setMessage({ success: `Revoked “${revoking.name}”. Requests with it are refused from now on.` });
      await keys.reload();
    } catch (e) {
      setMessage({ error: describeError(e) });
    } finally {
      setBusy(false);
      setRevoking(null);
    }
  };

  return (
    <>
      <PageTitle>API Keys</PageTitle>
      <p class="lead">
        A key lets a program call the API as {admin ? 'a user of your account' : 'you'}, limited to its scopes. Send it as <code>Authorization: Bearer &lt;key&gt;</code>.
      </p>
      <Message error={message.error} success={message.success} />
      {created ? (
        <ShownOnce title={`Your new key “${created.name}”`} value={created.key} what="API key" onDone={() => setCreated(null)} />
      ) : (
        <GenerateForm
          session={session}
          users={users.value?.data}
          onCreated={async (name, key) => {
            setMessage({});
            setCreated({ name, key });
            await keys.reload();
          }}
        />
      )}
      <section aria-labelledby="keys-list">
        <h2 id="keys-list">{admin ? 'Keys of the account' : 'Your keys'}</h2>
        {keys.loading && !keys.value ? (
          <Loading what="keys" />
        ) : keys.error ? (
          <Message error={keys.error} />
        ) : keys.value && keys.value.data.length === 0 ? (
          <p>No keys yet. Generate one above.</p>
        ) : (
          <div class="table-wrap">
            <table>
              <caption class="visually-hidden">API keys</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Prefix</th>
                  <th scope="col">Scopes</th>
                  {admin && <th scope="col">User</th>}
                  <th scope="col">Created</th>
                  <th scope="col">Last used</th>
                  <th scope="col">Expires</th>
                  <th scope="col">
                    <span class="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {keys.value?.data.map((k) => (
                  <tr key={k.id}>
                    <th scope="row">{k.name}</th>
                    <td>
                      <code>{k.prefix}…</code>
                    </td>
                    <td class="scopes">{k.scopes.join(', ')}</td>
                    {admin && <td>{owner(k.user_id)?.email ?? k.user_id}</td>}
                    <td>{formatDate(k.created_at)}</td>
                    <td>{formatDate(k.last_used_at, 'Never')}</td>
                    <td>{k.expires_at && Date.parse(k.expires_at) <= Date.now() ? `Expired ${formatDate(k.expires_at)}` : formatDate(k.expires_at, 'Never')}</td>
                    <td>
                      <Button kind="danger" onClick={() => setRevoking(k)} label={`Revoke ${k.name}`}>
                        Revoke
                      </Button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      {revoking && (
        <Confirm title={`Revoke “${revoking.name}”?`} confirmText="Revoke key" onAnswer={revoke} busy={busy}>
          <p>
            Programs using the key <code>{revoking.prefix}…</code> get <strong>401 Unauthorized</strong> at once. This cannot be undone.
          </p>
        </Confirm>
      )}
    </>
  );
}

function GenerateForm(props: { session: SessionView; users: User[] | undefined; onCreated: (name: string, key: string) => void }) {
  const { session } = props;
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<string[]>(session.scopes);
  const [expiry, setExpiry] = useState('never');
  const [date, setDate] = useState('');
  const [userId, setUserId] = useState(session.user.id);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [nameError, setNameError] = useState<string | undefined>();

  const submit = async (event: Event) => {
    event.preventDefault();
    if (!name.trim()) return setNameError('Give the key a name, such as the program that will use it.');
    if (scopes.length === 0) return setError('Choose at least one scope.');
    setNameError(undefined);
    setError(null);
    let expiresAt: string | undefined;
    if (expiry === 'custom') {
      if (!date) return setError('Choose the expiry date.');
      expiresAt = new Date(`${date}T23:59:59`).toISOString();
    } else if (expiry !== 'never') {
      expiresAt = new Date(Date.now() + Number(expiry) * 86_400_000).toISOString();
    }
    setBusy(true);
    try {
      const body: Record<string, unknown> = { name: name.trim(), scopes };
      if (expiresAt) body.expires_at = expiresAt;
      if (userId !== session.user.id) body.user_id = userId;
      const reply = await api.post<ApiKey & { key: string }>('/v1/api-keys', body);
      setName('');
      props.onCreated(reply.data.name, reply.data.key);
    } catch (e) {
      setError(describeError(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="card" onSubmit={submit} aria-labelledby="generate-title" noValidate>
      <h2 id="generate-title">Generate a new key</h2>
      <Message error={error} />
      <Field label="Name" hint="What the key is for, e.g. “CI deploys” or “reporting”." maxLength={100} required value={name} error={nameError} onInput={(e) => setName((e.currentTarget as HTMLInputElement).value)} />
      {props.users && props.users.length > 1 && (
        <Select
          label="Acts as user"
          value={userId}
          onChange={setUserId}
          options={props.users.map((u) => [u.id, `${u.name} <${u.email}> (${u.role})`])}
          hint="Admins and owners can make a key for another user; it can do only what that user's role allows."
        />
      )}
      <Checkboxes legend="Scopes" hint="Give the key only what it needs." options={session.scopes.map((s) => [s, SCOPE_TEXT[s] ?? s])} selected={scopes} onChange={setScopes} />
      <Select label="Expires" value={expiry} onChange={setExpiry} options={EXPIRY} />
      {expiry === 'custom' && <Field label="Expiry date" type="date" value={date} min={new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)} onInput={(e) => setDate((e.currentTarget as HTMLInputElement).value)} />}
      <Button kind="primary" type="submit" busy={busy} busyText="Generating…">
        Generate key
      </Button>
    </form>
  );
}
