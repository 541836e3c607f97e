// OAuth Apps: register an app (name, redirect URIs, type, scopes), its client secret shown once with
// a copy button, rotate the secret, delete the app (every token of it stops working). Everyone
// manages their own apps; admins and owners see every app of the account.
import { useState } from 'preact/hooks';
import { api, type SessionView } from '../api.js';
import { isAdmin } from '../sections.js';
import { Button, Checkboxes, Confirm, Field, Form, formatDate, Invalid, Message, PageTitle, ResourceList, Select, ShownOnce, Submit, TextArea, useAction, useConfirm, useForm, useLoad, type Column } from '../components/index.js';
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
  const actions = useAction();
  const remove = useConfirm(actions, 'delete', async (app: OAuthApp) => {
    await api.delete(`/v1/oauth/apps/${app.id}`);
    await apps.reload();
    return `Deleted “${app.name}”. Its tokens are refused from now on.`;
  });
  const rotate = useConfirm(actions, 'rotate', async (app: OAuthApp) => {
    const reply = await api.post<OAuthApp & { client_secret: string }>(`/v1/oauth/apps/${app.id}/rotate-secret`);
    setShown({ title: `A new client secret for “${app.name}”`, clientId: app.id, secret: reply.data.client_secret });
    await apps.reload();
  });

  const columns: Column<OAuthApp>[] = [
    {
      header: 'App and client ID',
      rowHeader: true,
      cell: (app) => (
        <>
          {app.name} <span class="badge">{app.type}</span>
          <div>
            <code>{app.id}</code>
          </div>
        </>
      ),
    },
    {
      header: 'Redirect URIs',
      class: 'scopes',
      cell: (app) =>
        app.redirect_uris.map((uri) => (
          <div key={uri}>
            <code>{uri}</code>
          </div>
        )),
    },
    { header: 'Scopes', class: 'scopes', cell: (app) => app.scopes.join(', ') },
    { header: 'Created', cell: (app) => formatDate(app.created_at) },
    {
      header: 'Actions',
      hideHeader: true,
      class: 'row-actions',
      cell: (app) => (
        <>
          {app.type === 'confidential' && (
            <Button onClick={() => rotate.ask(app)} label={`Rotate the secret of ${app.name}`}>
              Rotate secret
            </Button>
          )}
          <Button kind="danger" onClick={() => remove.ask(app)} label={`Delete ${app.name}`}>
            Delete
          </Button>
        </>
      ),
    },
  ];

  return (
    <>
      <PageTitle>OAuth Apps</PageTitle>
      <p class="lead">
        Register an app that people of any account can authorize to act for them (the authorization code flow with PKCE), or that acts for you with client credentials.
        Apps find the endpoints at <code>{location.origin}/.well-known/oauth-authorization-server</code>.
      </p>
      <Message {...actions.outcome} />
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
            actions.say({ success: `Registered “${app.name}”. Its client ID is ${app.id}.` });
            if (secret) setShown({ title: `The client secret of “${app.name}”`, clientId: app.id, secret });
            await apps.reload();
          }}
        />
      )}
      <ResourceList title={admin ? 'Apps of the account' : 'Your apps'} state={apps} what="apps" empty="No apps yet. Register one above." caption="OAuth apps" columns={columns} />
      {remove.subject && (
        <Confirm title={`Delete “${remove.subject.name}”?`} confirmText="Delete app" {...remove.dialog}>
          <p>
            Everyone who authorized it is disconnected, and every token it holds gets <strong>401 Unauthorized</strong> at once. This cannot be undone.
          </p>
        </Confirm>
      )}
      {rotate.subject && (
        <Confirm title={`Rotate the secret of “${rotate.subject.name}”?`} confirmText="Rotate secret" {...rotate.dialog}>
          <p>The current secret stops working at once; the app needs the new one to get tokens. Tokens it already holds keep working.</p>
        </Confirm>
      )}
    </>
  );
}

function RegisterForm(props: { onCreated: (app: OAuthApp, secret: string | undefined) => void }) {
  const form = useForm({ name: '', redirect_uris: '', type: 'confidential', scopes: GRANTABLE_SCOPES.map(([s]) => s) });

  const submit = async (values: typeof form.values) => {
    const name = values.name.trim();
    const uris = values.redirect_uris.split('\n').map((u) => u.trim()).filter(Boolean);
    if (!name) throw new Invalid('Give the app a name: people see it when they authorize it.');
    if (uris.length === 0) throw new Invalid('Add at least one redirect URI.');
    if (values.scopes.length === 0) throw new Invalid('Choose at least one scope.');
    const reply = await api.post<OAuthApp & { client_secret?: string }>('/v1/oauth/apps', { name, redirect_uris: uris, type: values.type, scopes: values.scopes });
    form.reset('name', 'redirect_uris');
    props.onCreated(reply.data, reply.data.client_secret);
  };

  return (
    <Form form={form} title="Register an app" onSubmit={submit}>
      <Field label="App name" hint="Shown to people on the consent page." maxLength={100} required {...form.bind('name')} />
      <TextArea
        label="Redirect URIs"
        hint="One per line: https:// addresses, or for native apps http://127.0.0.1:<port>/… (any port works at sign-in). Compared exactly."
        rows={3}
        {...form.bind('redirect_uris')}
      />
      <Select
        label="Type"
        {...form.bind('type')}
        options={[
          ['confidential', 'Confidential: a server that keeps a client secret'],
          ['public', 'Public: a native or browser app (no secret, PKCE only)'],
        ]}
      />
      <Checkboxes legend="Scopes" hint="The most the app may ask for. Managing keys and apps is never granted to an app." options={GRANTABLE_SCOPES} {...form.bind('scopes')} />
      <Submit busyText="Registering…">Register app</Submit>
    </Form>
  );
}
