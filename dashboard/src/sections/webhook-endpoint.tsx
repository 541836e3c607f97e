// One webhook endpoint under API Settings: its facts, its actions and its delivery log.
import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { Button, Checkboxes, Confirm, Form, formatDate, Invalid, Submit, useAction, useConfirm, useForm, type Outcome } from '../components/index.js';
import { DeliveryLog } from './webhook-deliveries.js';
import { EVENTS, REASONS, type Endpoint } from './webhooks.js';

/** One endpoint: its facts, its actions (each reported in the section's message) and its delivery log. */
export function EndpointCard(props: { endpoint: Endpoint; onChanged: () => Promise<void>; onSecret: (secret: string) => void; say: (outcome: Outcome) => void }) {
  const { endpoint } = props;
  const card = useAction({ report: props.say });
  const edit = useForm({ events: endpoint.events }, { report: props.say });
  const [editing, setEditing] = useState(false);
  const [showLog, setShowLog] = useState(false);
  const [logVersion, setLogVersion] = useState(0);
  /** Every change reloads the endpoints, so the card shows what the service now holds. */
  const changed = async (said?: string | void) => (await props.onChanged(), said);
  const act = (what: string, work: () => Promise<string | void>) => card.run(what, async () => changed(await work()));
  const rotate = useConfirm(card, 'rotate', async () => {
    const reply = await api.post<{ secret: string }>(`/v1/webhooks/${endpoint.id}/rotate-secret`);
    props.onSecret(reply.data.secret);
    return changed();
  });
  const remove = useConfirm(card, 'delete', async () => {
    await api.delete(`/v1/webhooks/${endpoint.id}`);
    return changed(`Deleted ${endpoint.url}.`);
  });
  const saveEvents = async ({ events }: typeof edit.values) => {
    if (events.length === 0) throw new Invalid('Choose at least one event.');
    await api.put(`/v1/webhooks/${endpoint.id}`, { events });
    setEditing(false);
    return changed(`Saved the events of ${endpoint.url}.`);
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
        <Form form={edit} class="" message={false} onSubmit={saveEvents}>
          <Checkboxes legend="Events" options={EVENTS} {...edit.bind('events')} />
          <div class="actions">
            <Submit busyText="Saving…">Save events</Submit>
            <Button onClick={() => (setEditing(false), edit.reset())}>Cancel</Button>
          </div>
        </Form>
      ) : (
        <div class="actions">
          <Button onClick={() => setEditing(true)}>Edit events</Button>
          <Button
            busy={card.busy === 'enabled'}
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
            busy={card.busy === 'test'}
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
          <Button onClick={() => rotate.ask(endpoint)}>Rotate secret</Button>
          <Button onClick={() => (setShowLog(!showLog), setLogVersion((n) => n + 1))} label={`${showLog ? 'Hide' : 'Show'} delivery log of ${endpoint.url}`}>
            {showLog ? 'Hide delivery log' : 'Delivery log'}
          </Button>
          <Button kind="danger" onClick={() => remove.ask(endpoint)}>
            Delete
          </Button>
        </div>
      )}
      {showLog && <DeliveryLog endpoint={endpoint} version={logVersion} say={props.say} />}
      {rotate.subject && (
        <Confirm title="Rotate the signing secret?" confirmText="Rotate secret" {...rotate.dialog}>
          <p>A new secret is made and shown once. For 24 hours deliveries are signed with both, so your receiver can switch over.</p>
        </Confirm>
      )}
      {remove.subject && (
        <Confirm title={`Delete ${endpoint.url}?`} confirmText="Delete endpoint" {...remove.dialog}>
          <p>It receives nothing more, and its delivery log goes with it.</p>
        </Confirm>
      )}
    </article>
  );
}
