// OAuth Apps: register an app (name, redirect URIs, type, scopes), its client secret shown once with
// a copy button, rotate the secret, delete the app (every token of it stops working). Everyone
// manages their own apps; admins and owners see every app of the account.
import { useState } from 'preact/hooks';
import { api, describeError, type SessionView } from '../api.js';
import { isAdmin } from '../sections.js';
import { Button, Checkboxes, Confirm, Field, formatDate, Loading, Message, PageTitle, Select, ShownOnce, useId, useLoad } from '../ui.js';
import { GRANTABLE_SCOPES } from './scopes.js';

interface OAuthApp {
  id: string;
  name: string;
  redirect_uris: string[];
  type: 'confidential' | 'public';
  scopes: string[];
  user_id: string;
  created_at: string;
  updated_at: string;
}

type Shown = { title: string; clientId: string; secret: string };

export function OAuthAppsSection({ session }: { session: SessionView }) {
  const admin = isAdmin(session.user.role);
  const apps = useLoad(() => api.page<OAuthApp>('/v1/oauth/apps?limit=100'));
  const [shown, setShown] = useState<Shown | null>(null);
  const [deleting, setDeleting] = useState<OAuthApp | null>(null);
  const [rotating, setRotating] = useState<OAuthApp | null>(null);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ error?: string; success?: string }>({});

  const act = async (work: () => Promise<void>) => {
    setBusy(true);
    try {
      await work();
      await apps.reload();
    } catch (e) {
      setMessage({ error: describeError(e) });
    } finally {
      setBusy(false);
      setDeleting(null);
      setRotating(null);
    }
  };

  const remove = (yes: boolean) =>
    !yes || !deleting
      ? setDeleting(null)
      : act(async () => {
          await api.delete(`/v1/oauth/apps/${deleting.id}`);
          setMessage({ success: `Deleted “${deleting.name}”. Its tokens are refused from now on.` });
        });

  const rotate = (yes: boolean) =>
    !yes || !rotating
      ? setRotating(null)
      : act(async () => {
          const reply = await api.post<OAuthApp & { client_secret: string }>(`/v1/oauth/apps/${rotating.id}/rotate-secret`);
          setMessage({});
          setShown({ title: `A new client secret for “${rotating.name}”`, clientId: rotating.id, secret: reply.data.client_secret });
        });

  return (
    <>
      <PageTitle>OAuth Apps</PageTitle>
      <p class="lead">
        Register an app that people of any account can authorize to act for them (the authorization code flow with PKCE), or that acts for you with client credentials.
        Apps find the endpoints at <code>{location.origin}/.well-known/oauth-authorization-server</code>.
      </p>
      <Message error={message.error} success={message.success} />
      {shown ? (
        <>
          <p>
            Client ID: <code>{shown.clientId}</code>
          </p>
          <ShownOnce title={shown.title} value={shown.secret} what="client secret" onDone={() => setShown(null)} />
        </>
      ) : (
        <RegisterForm
          onCreated={async (app, secret) => {
            setMessage({ success: `Registered “${app.name}”. Its client ID is ${app.id}.` });
            if (secret) setShown({ title: `The client secret of “${app.name}”`, clientId: app.id, secret });
            await apps.reload();
          }}
        />
      )}
      <section aria-labelledby="apps-list">
        <h2 id="apps-list">{admin ? 'Apps of the account' : 'Your apps'}</h2>
        {apps.loading && !apps.value ? (
          <Loading what="apps" />
        ) : apps.error ? (
          <Message error={apps.error} />
        ) : apps.value && apps.value.data.length === 0 ? (
          <p>No apps yet. Register one above.</p>
        ) : (
          <div class="table-wrap">
            <table>
              <caption class="visually-hidden">OAuth apps</caption>
              <thead>
                <tr>
                  <th scope="col">App and client ID</th>
                  <th scope="col">Redirect URIs</th>
                  <th scope="col">Scopes</th>
                  <th scope="col">Created</th>
                  <th scope="col">
                    <span class="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {apps.value?.data.map((app) => (
                  <tr key={app.id}>
                    <th scope="row">
                      {app.name} <span class="badge">{app.type}</span>
                      <div>
                        <code>{app.id}</code>
                      </div>
                    </th>
                    <td class="scopes">
                      {app.redirect_uris.map((uri) => (
                        <div key={uri}>
                          <code>{uri}</code>
                        </div>
                      ))}
                    </td>
                    <td class="scopes">{app.scopes.join(', ')}</td>
                    <td>{formatDate(app.created_at)}</td>
                    <td class="row-actions">
                      {app.type === 'confidential' && (
                        <Button onClick={() => setRotating(app)} label={`Rotate the secret of ${app.name}`}>
                          Rotate secret
                        </Button>
                      )}
                      <Button kind="danger" onClick={() => setDeleting(app)} label={`Delete ${app.name}`}>
                        Delete
                      </Button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      {deleting && (
        <Confirm title={`Delete “${deleting.name}”?`} confirmText="Delete app" onAnswer={remove} busy={busy}>
          <p>
            Everyone who authorized it is disconnected, and every token it holds gets <strong>401 Unauthorized</strong> at once. This cannot be undone.
          </p>
        </Confirm>
      )}
      {rotating && (
        <Confirm title={`Rotate the secret of “${rotating.name}”?`} confirmText="Rotate secret" onAnswer={rotate} busy={busy}>
          <p>The current secret stops working at once; the app needs the new one to get tokens. Tokens it already holds keep working.</p>
        </Confirm>
      )}
    </>
  );
}

function RegisterForm(props: { onCreated: (app: OAuthApp, secret: string | undefined) => void }) {
  const [name, setName] = useState('');
  const [uris, setUris] = useState('');
  const [type, setType] = useState('confidential');
  const [scopes, setScopes] = useState<string[]>(GRANTABLE_SCOPES.map(([s]) => s));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const urisId = useId('uris');

  const submit = async (event: Event) => {
    event.preventDefault();
    const list = uris.split('\n').map((u) => u.trim()).filter(Boolean);
    if (!name.trim()) return setError('Give the app a name: people see it when they authorize it.');
    if (list.length === 0) return setError('Add at least one redirect URI.');
    if (scopes.length === 0) return setError('Choose at least one scope.');
    setError(null);
    setBusy(true);
    try {
      const reply = await api.post<OAuthApp & { client_secret?: string }>('/v1/oauth/apps', { name: name.trim(), redirect_uris: list, type, scopes });
      setName('');
      setUris('');
      props.onCreated(reply.data, reply.data.client_secret);
    } catch (e) {
      setError(describeError(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="card" onSubmit={submit} aria-labelledby="register-title" noValidate>
      <h2 id="register-title">Register an app</h2>
      <Message error={error} />
      <Field label="App name" hint="Shown to people on the consent page." maxLength={100} required value={name} onInput={(e) => setName((e.currentTarget as HTMLInputElement).value)} />
      <div class="field">
        <label for={urisId}>Redirect URIs</label>
        <p class="hint" id={`${urisId}-hint`}>
          One per line: https:// addresses, or for native apps http://127.0.0.1:&lt;port&gt;/… (any port works at sign-in). Compared exactly.
        </p>
        <textarea id={urisId} rows={3} aria-describedby={`${urisId}-hint`} value={uris} onInput={(e) => setUris((e.currentTarget as HTMLTextAreaElement).value)} />
      </div>
      <Select
        label="Type"
        value={type}
        onChange={setType}
        options={[
          ['confidential', 'Confidential: a server that keeps a client secret'],
          ['public', 'Public: a native or browser app (no secret, PKCE only)'],
        ]}
      />
      <Checkboxes legend="Scopes" hint="The most the app may ask for. Managing keys and apps is never granted to an app." options={GRANTABLE_SCOPES} selected={scopes} onChange={setScopes} />
      <Button kind="primary" type="submit" busy={busy} busyText="Registering…">
        Register app
      </Button>
    </form>
  );
}
