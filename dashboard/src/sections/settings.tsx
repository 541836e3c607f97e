// API Settings: webhook endpoints — add, edit events, enable/disable, rotate the secret, send a test,
// and each endpoint's delivery log with retry. Plans without webhooks get a clear note instead.
import { useState } from 'preact/hooks';
import { api, type SessionView } from '../api.js';
import { Checkboxes, Field, Form, Invalid, Message, PageTitle, ResourceList, ShownOnce, Submit, useAction, useForm, useLoad } from '../components/index.js';
import { EndpointCard } from './webhook-endpoint.js';
import { EVENTS, WEBHOOK_PLANS, type Endpoint } from './webhooks.js';

export function SettingsSection({ session }: { session: SessionView }) {
  const planHasWebhooks = WEBHOOK_PLANS.includes(session.account.plan);
  const endpoints = useLoad(() => (planHasWebhooks ? api.page<Endpoint>('/v1/webhooks?limit=100') : Promise.resolve(undefined)));
  const [secret, setSecret] = useState<{ title: string; value: string } | null>(null);
  const actions = useAction();

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
      <Message {...actions.outcome} />
      {secret ? (
        <ShownOnce title={secret.title} value={secret.value} what="signing secret" onDone={() => setSecret(null)} />
      ) : (
        <AddEndpoint
          onAdded={async (endpoint, value) => {
            actions.say({ success: `Added ${endpoint.url}.` });
            setSecret({ title: `Signing secret of ${endpoint.url}`, value });
            await endpoints.reload();
          }}
        />
      )}
      <ResourceList
        title="Endpoints"
        state={endpoints}
        what="endpoints"
        empty="No endpoints yet. Add one above."
        render={(rows) =>
          rows.map((endpoint) => (
            <EndpointCard
              key={endpoint.id}
              endpoint={endpoint}
              onChanged={endpoints.reload}
              onSecret={(value) => setSecret({ title: `New signing secret of ${endpoint.url}`, value })}
              say={actions.say}
            />
          ))
        }
      />
    </>
  );
}

function AddEndpoint(props: { onAdded: (endpoint: Endpoint, secret: string) => void }) {
  const form = useForm({ url: '', description: '', events: ['*'] });
  const submit = async (values: typeof form.values) => {
    if (!values.url.trim()) throw new Invalid('Enter the URL that should receive the events.');
    if (values.events.length === 0) throw new Invalid('Choose at least one event.');
    const reply = await api.post<Endpoint & { secret: string }>('/v1/webhooks', { url: values.url.trim(), description: values.description, events: values.events });
    form.reset('url', 'description');
    props.onAdded(reply.data, reply.data.secret);
  };
  return (
    <Form form={form} title="Add an endpoint" onSubmit={submit}>
      <Field label="URL" type="url" inputMode="url" placeholder="https://example.com/webhooks" required {...form.bind('url')} hint="An https address on the public internet." />
      <Field label="Description (optional)" maxLength={500} {...form.bind('description')} />
      <Checkboxes legend="Events" options={EVENTS} {...form.bind('events')} />
      <Submit busyText="Adding…">Add endpoint</Submit>
    </Form>
  );
}
