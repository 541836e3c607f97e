// Connected Apps: the OAuth apps you authorized to act for you, with what you granted, and Revoke
// (the app's tokens stop working at once).
import { api, type SessionView } from '../api.js';
import { Button, Confirm, formatDate, Message, PageTitle, ResourceList, useAction, useConfirm, useLoad, type Column } from '../components/index.js';

interface ConnectedApp {
  id: string;
  app: { id: string; name: string };
  scopes: string[];
  created_at: string;
  last_used_at: string | null;
}

export function ConnectedAppsSection(_props: { session: SessionView }) {
  const grants = useLoad(() => api.page<ConnectedApp>('/v1/oauth/authorizations?limit=100'));
  const actions = useAction();
  const revoke = useConfirm(actions, 'revoke', async (grant: ConnectedApp) => {
    await api.delete(`/v1/oauth/authorizations/${grant.id}`);
    await grants.reload();
    return `Disconnected “${grant.app.name}”. Its tokens are refused from now on.`;
  });
  const columns: Column<ConnectedApp>[] = [
    { header: 'App', rowHeader: true, cell: (g) => g.app.name },
    { header: 'Granted', class: 'scopes', cell: (g) => g.scopes.join(', ') },
    { header: 'Authorized', cell: (g) => formatDate(g.created_at) },
    { header: 'Last used', cell: (g) => formatDate(g.last_used_at, 'Never') },
    {
      header: 'Actions',
      hideHeader: true,
      cell: (g) => (
        <Button kind="danger" onClick={() => revoke.ask(g)} label={`Revoke ${g.app.name}`}>
          Revoke
        </Button>
      ),
    },
  ];

  return (
    <>
      <PageTitle>Connected Apps</PageTitle>
      <p class="lead">Apps you allowed to act for you. Each can do what you granted, and never more than your role allows.</p>
      <Message {...actions.outcome} />
      <ResourceList state={grants} what="connected apps" empty="You have not authorized any app." caption="Connected apps" columns={columns} />
      {revoke.subject && (
        <Confirm title={`Disconnect “${revoke.subject.app.name}”?`} confirmText="Revoke access" {...revoke.dialog}>
          <p>
            The app's tokens get <strong>401 Unauthorized</strong> at once. It can act for you again only if you authorize it again.
          </p>
        </Confirm>
      )}
    </>
  );
}
