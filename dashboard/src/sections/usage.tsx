// Usage: this cycle's requests against the quota, requests per day as a chart (SVG drawn here, with
// the same figures in a table for screen readers), the hourly rate-limit window and the plan.
import { api, type SessionView } from '../api.js';
import { Button, formatDate, Loading, Message, PageTitle, ProgressBar, Table, useLoad, type Column } from '../components/index.js';

interface Usage {
  plan: string;
  period_start: string;
  period_end: string;
  used: number;
  quota: number;
  remaining: number;
  rate_limit: { limit: number; remaining: number; reset: number } | null;
  keys: { key_id: string; name: string | null; used: number }[];
  apps: { app_id: string; name: string | null; used: number }[];
  days: { date: string; used: number }[];
}

const number = (n: number) => n.toLocaleString();

const DAY_COLUMNS: Column<Usage['days'][number]>[] = [
  { header: 'Day (UTC)', cell: (d) => d.date },
  { header: 'Requests', cell: (d) => number(d.used) },
];
/** Requests per key or per app: its name (or that it is gone) with its id, and the count. */
const usedBy = <R extends { name: string | null; used: number }>(header: string, gone: string, id: (row: R) => string): Column<R>[] => [
  {
    header,
    cell: (r) => (
      <>
        {r.name ?? gone} <code class="hint">{id(r)}</code>
      </>
    ),
  },
  { header: 'Requests', cell: (r) => number(r.used) },
];
const KEY_COLUMNS = usedBy<Usage['keys'][number]>('Key', 'Deleted key', (k) => k.key_id);
const APP_COLUMNS = usedBy<Usage['apps'][number]>('App', 'Deleted app', (a) => a.app_id);

export function UsageSection(_props: { session: SessionView }) {
  const usage = useLoad(() => api.get<Usage>('/v1/usage').then((r) => r.data));
  const u = usage.value;
  return (
    <>
      <PageTitle>Usage</PageTitle>
      <div class="actions">
        <Button onClick={usage.reload} busy={usage.loading} busyText="Refreshing…">
          Refresh
        </Button>
      </div>
      {usage.error && <Message error={usage.error} />}
      {!u ? (
        !usage.error && <Loading what="usage" />
      ) : (
        <>
          <div class="tiles">
            <section class="card tile" aria-labelledby="quota-title">
              <h2 id="quota-title">This cycle</h2>
              <p class="big">
                {number(u.used)} <span class="of">of {number(u.quota)} requests</span>
              </p>
              <ProgressBar value={u.used} max={u.quota} label="Quota used" />
              <p class="hint">
                {number(u.remaining)} left · renews {formatDate(u.period_end)}
              </p>
            </section>
            <section class="card tile" aria-labelledby="rate-title">
              <h2 id="rate-title">Hourly rate limit</h2>
              {u.rate_limit ? (
                <>
                  <p class="big">
                    {number(u.rate_limit.remaining)} <span class="of">of {number(u.rate_limit.limit)} left this hour</span>
                  </p>
                  <ProgressBar value={u.rate_limit.limit - u.rate_limit.remaining} max={u.rate_limit.limit} label="Hourly limit used" />
                  <p class="hint">The window resets at {formatDate(new Date(u.rate_limit.reset * 1000).toISOString())}.</p>
                </>
              ) : (
                <p>Rate limits are switched off on this service.</p>
              )}
            </section>
            <section class="card tile" aria-labelledby="plan-title">
              <h2 id="plan-title">Plan</h2>
              <p class="big">{u.plan}</p>
              <p class="hint">
                Cycle {formatDate(u.period_start)} – {formatDate(u.period_end)}
              </p>
            </section>
          </div>
          <section class="card" aria-labelledby="days-title">
            <h2 id="days-title">Requests per day</h2>
            <p class="hint">Requests that ended 2xx, per UTC day of this cycle; today's count may lag by a few seconds.</p>
            <DayChart days={u.days} />
            <details>
              <summary>Show as a table</summary>
              <Table rows={u.days} columns={DAY_COLUMNS} rowKey={(d) => d.date} />
            </details>
          </section>
          <section class="card" aria-labelledby="keys-usage-title">
            <h2 id="keys-usage-title">By key</h2>
            {u.keys.length === 0 ? (
              <p>No requests yet this cycle.</p>
            ) : (
              <Table rows={u.keys} columns={KEY_COLUMNS} rowKey={(k) => k.key_id} />
            )}
          </section>
          {u.apps.length > 0 && (
            <section class="card" aria-labelledby="apps-usage-title">
              <h2 id="apps-usage-title">By OAuth app</h2>
              <Table rows={u.apps} columns={APP_COLUMNS} rowKey={(a) => a.app_id} />
            </section>
          )}
        </>
      )}
    </>
  );
}

function DayChart(props: { days: Usage['days'] }) {
  const { days } = props;
  const max = Math.max(1, ...days.map((d) => d.used));
  // One 24-unit slot per day: a new cycle's few days stay narrow bars instead of stretching.
  const width = Math.max(days.length * 24, 120);
  const height = 160;
  const bar = width / days.length;
  const total = days.reduce((sum, d) => sum + d.used, 0);
  return (
    <figure class="chart">
      <svg viewBox={`0 0 ${width} ${height + 24}`} width={width} height={height + 24} role="img" aria-label={`Requests per day: ${number(total)} over ${days.length} days, at most ${number(max)} in a day.`}>
        <line x1="0" y1={height} x2={width} y2={height} class="axis" />
        {days.map((d, i) => {
          const h = Math.round((d.used / max) * (height - 16));
          const x = i * bar + bar * 0.15;
          return (
            <g key={d.date}>
              <rect x={x} y={height - h} width={bar * 0.7} height={h} class="day" data-date={d.date} data-used={d.used}>
                <title>{`${d.date}: ${number(d.used)} requests`}</title>
              </rect>
              {d.used > 0 && (
                <text x={x + bar * 0.35} y={height - h - 4} class="value" text-anchor="middle">
                  {number(d.used)}
                </text>
              )}
              {(i === 0 || i === days.length - 1 || days.length <= 10 || i % 5 === 0) && (
                <text x={x + bar * 0.35} y={height + 16} class="label" text-anchor="middle">
                  {d.date.slice(5)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <figcaption class="visually-hidden">The table below lists the same figures.</figcaption>
    </figure>
  );
}
