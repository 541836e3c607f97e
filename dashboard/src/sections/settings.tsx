// API Settings: webhook endpoints — add, edit events, enable/disable, rotate the secret, send a test,
// and each endpoint's delivery log with retry. Plans without webhooks get a clear note instead.
import { useState } from 'preact/hooks';
import { api, ApiError, describeError, type SessionView } from '../api.js';
import { Button, Checkboxes, Confirm, Field, formatDate, Loading, Message, PageTitle, ShownOnce, useLoad } from '../ui.js';

interface Endpoint {
  id: string;
  url: string;
  description: string;
  events: string[];
  enabled: boolean;
  disabled_reason: 'requested' | 'gone' | 'failing' | null;
  failing_since: string | null;
  created_at: string;
}

interface Delivery {
  id: string;
  event_id: string;
  event_type: string;
  attempt: number;
  status: 'pending' | 'succeeded' | 'failed';
  response_status: number | null;
  duration_ms: number | null;
  error: string | null;
  created_at: string;
  attempted_at: string | null;
  next_attempt_at: string | null;
}

/** The event types an endpoint may subscribe to (GET /v1/openapi.json lists the same). */
const EVENTS: [string, string][] = [
  ['*', 'All events, including types added later'],
  ['content.created', 'content.created'],
  ['content.updated', 'content.updated'],
  ['content.deleted', 'content.deleted'],
  ['user.created', 'user.created'],
  ['user.updated', 'user.updated'],
  ['user.deleted', 'user.deleted'],
  ['api_key.usage_alert', 'api_key.usage_alert — rate limit and quota alerts'],
];
const WEBHOOK_PLANS = ['pro', 'enterprise'];
const REASONS: Record<string, string> = {
  requested: 'Disabled',
  gone: 'Disabled: the receiver answered 410 Gone',
  failing: 'Disabled: every attempt failed for 3 days',
};

export function SettingsSection({ session }: { session: SessionView }) {
  const planHasWebhooks = WEBHOOK_PLANS.includes(session.account.plan);
  const endpoints = useLoad(() => (planHasWebhooks ? api.page<Endpoint>('/v1/webhooks?limit=100') : Promise.resolve(undefined)));
  const [secret, setSecret] = useState<{ title: string; value: string } | null>(null);
  const [message, setMessage] = useState<{ error?: string; success?: string }>({});

  if (!planHasWebhooks || (endpoints.error && endpoints.error.includes('Pro and Enterprise'))) {
    return (
      <>
        <PageTitle>API Settings</PageTitle>
        <div class="note" role="note">
          <h2>Webhooks are not part of your plan</h2>
          <p>
            Webhooks — signed HTTP calls to your servers when content, users or usage change — come with the <strong>Pro</strong> and <strong>Enterprise</strong> plans. Your account is on the{' '}
            <strong>{session.account.plan}</strong> plan. Ask the service operator to change it; your events stay available through <code>GET /v1/events</code> and the live channel.
          </p>
        </div>
      </>
    );
  }

  return (
    <>
      <PageTitle>API Settings</PageTitle>
      <p class="lead">Webhook endpoints receive the account's events as signed POST requests (Standard Webhooks). See docs/webhooks.md for verifying signatures.</p>
      <Message error={message.error} success={message.success} />
      {secret ? (
        <ShownOnce title={secret.title} value={secret.value} what="signing secret" onDone={() => setSecret(null)} />
      ) : (
        <AddEndpoint
          onAdded={async (endpoint, value) => {
            setMessage({ success: `Added ${endpoint.url}.` });
            setSecret({ title: `Signing secret of ${endpoint.url}`, value });
            await endpoints.reload();
          }}
        />
      )}
      <section aria-labelledby="endpoints-title">
        <h2 id="endpoints-title">Endpoints</h2>
        {endpoints.loading && !endpoints.value ? (
          <Loading what="endpoints" />
        ) : endpoints.error ? (
          <Message error={endpoints.error} />
        ) : endpoints.value?.data.length === 0 ? (
          <p>No endpoints yet. Add one above.</p>
        ) : (
          endpoints.value?.data.map((endpoint) => (
            <EndpointCard
              key={endpoint.id}
              endpoint={endpoint}
              onChanged={endpoints.reload}
              onSecret={(value) => setSecret({ title: `New signing secret of ${endpoint.url}`, value })}
              onMessage={setMessage}
            />
          ))
        )}
      </section>
    </>
  );
}

function AddEndpoint(props: { onAdded: (endpoint: Endpoint, secret: string) => void }) {
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<string[]>(['*']);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: Event) => {
    event.preventDefault();
    if (!url.trim()) return setError('Enter the URL that should receive the events.');
    if (events.length === 0) return setError('Choose at least one event.');
    setBusy(true);
    setError(null);
    try {
      const reply = await api.post<Endpoint & { secret: string }>('/v1/webhooks', { url: url.trim(), description, events });
      setUrl('');
      setDescription('');
      props.onAdded(reply.data, reply.data.secret);
    } catch (e) {
      setError(describeError(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="card" onSubmit={submit} aria-labelledby="add-endpoint" noValidate>
      <h2 id="add-endpoint">Add an endpoint</h2>
      <Message error={error} />
      <Field label="URL" type="url" inputMode="url" placeholder="https://example.com/webhooks" required value={url} onInput={(e) => setUrl((e.currentTarget as HTMLInputElement).value)} hint="An https address on the public internet." />
      <Field label="Description (optional)" maxLength={500} value={description} onInput={(e) => setDescription((e.currentTarget as HTMLInputElement).value)} />
      <Checkboxes legend="Events" options={EVENTS} selected={events} onChange={setEvents} />
      <Button kind="primary" type="submit" busy={busy} busyText="Adding…">
        Add endpoint
      </Button>
    </form>
  );
}

function EndpointCard(props: { endpoint: Endpoint; onChanged: () => Promise<void>; onSecret: (secret: string) => void; onMessage: (m: { error?: string; success?: string }) => void }) {
  const { endpoint } = props;
  const [busy, setBusy] = useState<string | null>(null);
  const [editing, setEditing] = useState(false);
  const [events, setEvents] = useState(endpoint.events);
  const [showLog, setShowLog] = useState(false);
  const [logVersion, setLogVersion] = useState(0);
  const [confirm, setConfirm] = useState<'delete' | 'rotate' | null>(null);

  const act = async (what: string, work: () => Promise<string | void>) => {
    setBusy(what);
    props.onMessage({});
    try {
      const success = await work();
      if (success) props.onMessage({ success });
      await props.onChanged();
    } catch (e) {
      props.onMessage({ error: describeError(e) });
    } finally {
      setBusy(null);
    }
  };

  const status = endpoint.enabled ? (endpoint.failing_since ? `Enabled, failing since ${formatDate(endpoint.failing_since)}` : 'Enabled') : (REASONS[endpoint.disabled_reason ?? 'requested'] ?? 'Disabled');
  const headingId = `endpoint-${endpoint.id}`;
  return (
    <article class="card endpoint" aria-labelledby={headingId}>
      <h3 id={headingId} class="url">
        {endpoint.url}
      </h3>
      {endpoint.description && <p>{endpoint.description}</p>}
      <dl class="facts">
        <dt>Status</dt>
        <dd>
          <span class={`badge ${endpoint.enabled ? 'ok' : 'off'}`}>{status}</span>
        </dd>
        <dt>Events</dt>
        <dd>{endpoint.events.join(', ')}</dd>
        <dt>Added</dt>
        <dd>{formatDate(endpoint.created_at)}</dd>
      </dl>
      {editing ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (events.length === 0) return props.onMessage({ error: 'Choose at least one event.' });
            void act('events', async () => {
              await api.put(`/v1/webhooks/${endpoint.id}`, { events });
              setEditing(false);
              return `Saved the events of ${endpoint.url}.`;
            });
          }}
        >
          <Checkboxes legend="Events" options={EVENTS} selected={events} onChange={setEvents} />
          <div class="actions">
            <Button kind="primary" type="submit" busy={busy === 'events'} busyText="Saving…">
              Save events
            </Button>
            <Button onClick={() => (setEditing(false), setEvents(endpoint.events))}>Cancel</Button>
          </div>
        </form>
      ) : (
        <div class="actions">
          <Button onClick={() => setEditing(true)}>Edit events</Button>
          <Button
            busy={busy === 'enabled'}
            busyText="Saving…"
            onClick={() =>
              act('enabled', async () => {
                await api.put(`/v1/webhooks/${endpoint.id}`, { enabled: !endpoint.enabled });
                return `${endpoint.enabled ? 'Disabled' : 'Enabled'} ${endpoint.url}.`;
              })
            }
          >
            {endpoint.enabled ? 'Disable' : 'Enable'}
          </Button>
          <Button
            busy={busy === 'test'}
            busyText="Sending…"
            disabled={!endpoint.enabled}
            onClick={() =>
              act('test', async () => {
                await api.post(`/v1/webhooks/${endpoint.id}/test`);
                setShowLog(true);
                setLogVersion((n) => n + 1);
                return `Queued a webhook.test ping to ${endpoint.url}; it appears in the delivery log.`;
              })
            }
          >
            Send test
          </Button>
          <Button onClick={() => setConfirm('rotate')}>Rotate secret</Button>
          <Button onClick={() => (setShowLog(!showLog), setLogVersion((n) => n + 1))} label={`${showLog ? 'Hide' : 'Show'} delivery log of ${endpoint.url}`}>
            {showLog ? 'Hide delivery log' : 'Delivery log'}
          </Button>
          <Button kind="danger" onClick={() => setConfirm('delete')}>
            Delete
          </Button>
        </div>
      )}
      {showLog && <DeliveryLog endpoint={endpoint} version={logVersion} onMessage={props.onMessage} />}
      {confirm === 'rotate' && (
        <Confirm
          title="Rotate the signing secret?"
          confirmText="Rotate secret"
          busy={busy === 'rotate'}
          onAnswer={(yes) => {
            if (!yes) return setConfirm(null);
            void act('rotate', async () => {
              const reply = await api.post<{ secret: string }>(`/v1/webhooks/${endpoint.id}/rotate-secret`);
              setConfirm(null);
              props.onSecret(reply.data.secret);
            });
          }}
        >
          <p>A new secret is made and shown once. For 24 hours deliveries are signed with both, so your receiver can switch over.</p>
        </Confirm>
      )}
      {confirm === 'delete' && (
        <Confirm
          title={`Delete ${endpoint.url}?`}
          confirmText="Delete endpoint"
          busy={busy === 'delete'}
          onAnswer={(yes) => {
            if (!yes) return setConfirm(null);
            void act('delete', async () => {
              await api.delete(`/v1/webhooks/${endpoint.id}`);
              setConfirm(null);
              return `Deleted ${endpoint.url}.`;
            });
          }}
        >
          <p>It receives nothing more, and its delivery log goes with it.</p>
        </Confirm>
      )}
    </article>
  );
}

function DeliveryLog(props: { endpoint: Endpoint; version: number; onMessage: (m: { error?: string; success?: string }) => void }) {
  const log = useLoad(() => api.page<Delivery>(`/v1/webhooks/${props.endpoint.id}/deliveries?limit=20`), [props.version]);
  const [retrying, setRetrying] = useState<string | null>(null);
  const retry = async (delivery: Delivery) => {
    setRetrying(delivery.id);
    try {
      await api.post(`/v1/webhooks/${props.endpoint.id}/deliveries/${delivery.id}/retry`);
      props.onMessage({ success: `Queued another attempt of ${delivery.event_type}.` });
      await log.reload();
    } catch (e) {
      props.onMessage({ error: e instanceof ApiError && e.status === 409 ? e.message : describeError(e) });
    } finally {
      setRetrying(null);
    }
  };
  return (
    <section class="log" aria-label={`Delivery log of ${props.endpoint.url}`}>
      <div class="log-head">
        <h4>Delivery log</h4>
        <Button onClick={log.reload} busy={log.loading} busyText="Refreshing…">
          Refresh
        </Button>
      </div>
      {log.error ? (
        <Message error={log.error} />
      ) : !log.value ? (
        <Loading what="deliveries" />
      ) : log.value.data.length === 0 ? (
        <p>No deliveries yet. Send a test to see one.</p>
      ) : (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Event</th>
                <th scope="col">Attempt</th>
                <th scope="col">Status</th>
                <th scope="col">Response</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {log.value.data.map((d) => (
                <tr key={d.id}>
                  <td>{formatDate(d.attempted_at ?? d.created_at)}</td>
                  <td>
                    <code>{d.event_type}</code>
                  </td>
                  <td>{d.attempt}</td>
                  <td>
                    <span class={`badge ${d.status === 'succeeded' ? 'ok' : d.status === 'failed' ? 'bad' : 'wait'}`}>{d.status}</span>
                  </td>
                  <td>
                    {d.response_status !== null ? `HTTP ${d.response_status}` : d.status === 'pending' ? `due ${formatDate(d.next_attempt_at)}` : '—'}
                    {d.duration_ms !== null ? ` · ${d.duration_ms} ms` : ''}
                    {d.error ? <div class="hint">{d.error}</div> : null}
                  </td>
                  <td>
                    {d.status === 'failed' && (
                      <Button onClick={() => retry(d)} busy={retrying === d.id} busyText="Queuing…" label={`Retry ${d.event_type} attempt ${d.attempt}`}>
                        Retry
                      </Button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
