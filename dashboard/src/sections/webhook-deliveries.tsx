// An endpoint's delivery log: each attempt's status, HTTP status, duration and error, Retry on failed ones.
import { api } from '../api.js';
import { Button, formatDate, ResourceList, useAction, useLoad, type Column, type Outcome } from '../components/index.js';
import type { Delivery, Endpoint } from './webhooks.js';

export function DeliveryLog(props: { endpoint: Endpoint; version: number; say: (outcome: Outcome) => void }) {
  const log = useLoad(() => api.page<Delivery>(`/v1/webhooks/${props.endpoint.id}/deliveries?limit=20`), [props.version]);
  // A 409 says why this attempt cannot be retried (already retried, or the endpoint is gone): its message alone.
  const retries = useAction({ report: props.say, explain: (e) => (e.status === 409 ? e.message : undefined) });
  const retry = (delivery: Delivery) =>
    retries.run(delivery.id, async () => {
      await api.post(`/v1/webhooks/${props.endpoint.id}/deliveries/${delivery.id}/retry`);
      await log.reload();
      return `Queued another attempt of ${delivery.event_type}.`;
    });
  const columns: Column<Delivery>[] = [
    { header: 'When', cell: (d) => formatDate(d.attempted_at ?? d.created_at) },
    { header: 'Event', cell: (d) => <code>{d.event_type}</code> },
    { header: 'Attempt', cell: (d) => d.attempt },
    { header: 'Status', cell: (d) => <span class={`badge ${d.status === 'succeeded' ? 'ok' : d.status === 'failed' ? 'bad' : 'wait'}`}>{d.status}</span> },
    {
      header: 'Response',
      cell: (d) => (
        <>
          {d.response_status !== null ? `HTTP ${d.response_status}` : d.status === 'pending' ? `due ${formatDate(d.next_attempt_at)}` : '—'}
          {d.duration_ms !== null ? ` · ${d.duration_ms} ms` : ''}
          {d.error ? <div class="hint">{d.error}</div> : null}
        </>
      ),
    },
    {
      header: 'Actions',
      hideHeader: true,
      cell: (d) =>
        d.status === 'failed' && (
          <Button onClick={() => retry(d)} busy={retries.busy === d.id} busyText="Queuing…" label={`Retry ${d.event_type} attempt ${d.attempt}`}>
            Retry
          </Button>
        ),
    },
  ];
  return (
    <section class="log" aria-label={`Delivery log of ${props.endpoint.url}`}>
      <div class="log-head">
        <h4>Delivery log</h4>
        <Button onClick={log.reload} busy={log.loading} busyText="Refreshing…">
          Refresh
        </Button>
      </div>
      <ResourceList state={log} what="deliveries" empty="No deliveries yet. Send a test to see one." columns={columns} />
    </section>
  );
}
