// Connected Apps: the OAuth apps you authorized to act for you, with what you granted, and Revoke
// (the app's tokens stop working at once).
import { useState } from 'preact/hooks';
import { api, describeError, type SessionView } from '../api.js';
import { Button, Confirm, formatDate, Loading, Message, PageTitle, useLoad } from '../ui.js';

interface ConnectedApp {
  id: string;
  app: { id: string; name: string };
  scopes: string[];
  created_at: string;
  last_used_at: string | null;
}

export function ConnectedAppsSection(_props: { session: SessionView }) {
  const grants = useLoad(() => api.page<ConnectedApp>('/v1/oauth/authorizations?limit=100'));
  const [revoking, setRevoking] = useState<ConnectedApp | null>(null);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ error?: string; success?: string }>({});

  const revoke = async (yes: boolean) => {
    if (!yes || !revoking) return setRevoking(null);
    setBusy(true);
    try {
      await api.delete(`/v1/oauth/authorizations/${revoking.id}`);
      setMessage({ success: `Disconnected “${revoking.app.name}”. Its tokens are refused from now on.` });
      await grants.reload();
    } catch (e) {
      setMessage({ error: describeError(e) });
    } finally {
      setBusy(false);
      setRevoking(null);
    }
  };

  return (
    <>
      <PageTitle>Connected Apps</PageTitle>
      <p class="lead">Apps you allowed to act for you. Each can do what you granted, and never more than your role allows.</p>
      <Message error={message.error} success={message.success} />
      {grants.loading && !grants.value ? (
        <Loading what="connected apps" />
      ) : grants.error ? (
        <Message error={grants.error} />
      ) : grants.value && grants.value.data.length === 0 ? (
        <p>You have not authorized any app.</p>
      ) : (
        <div class="table-wrap">
          <table>
            <caption class="visually-hidden">Connected apps</caption>
            <thead>
              <tr>
                <th scope="col">App</th>
                <th scope="col">Granted</th>
                <th scope="col">Authorized</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {grants.value?.data.map((g) => (
                <tr key={g.id}>
                  <th scope="row">{g.app.name}</th>
                  <td class="scopes">{g.scopes.join(', ')}</td>
                  <td>{formatDate(g.created_at)}</td>
                  <td>{formatDate(g.last_used_at, 'Never')}</td>
                  <td>
                    <Button kind="danger" onClick={() => setRevoking(g)} label={`Revoke ${g.app.name}`}>
                      Revoke
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {revoking && (
        <Confirm title={`Disconnect “${revoking.app.name}”?`} confirmText="Revoke access" onAnswer={revoke} busy={busy}>
          <p>
            The app's tokens get <strong>401 Unauthorized</strong> at once. It can act for you again only if you authorize it again.
          </p>
        </Confirm>
      )}
    </>
  );
}
