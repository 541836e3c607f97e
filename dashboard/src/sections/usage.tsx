// Usage: this cycle's requests against the quota, requests per day as a chart (SVG drawn here, with
// the same figures in a table for screen readers), the hourly rate-limit window and the plan.
import { api, type SessionView } from '../api.js';
import { Button, formatDate, Loading, Message, PageTitle, useLoad } from '../ui.js';

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
              <Bar value={u.used} max={u.quota} label="Quota used" />
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
                  <Bar value={u.rate_limit.limit - u.rate_limit.remaining} max={u.rate_limit.limit} label="Hourly limit used" />
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
              <div class="table-wrap">
                <table>
                  <thead>
                    <tr>
                      <th scope="col">Day (UTC)</th>
                      <th scope="col">Requests</th>
                    </tr>
                  </thead>
                  <tbody>
                    {u.days.map((d) => (
                      <tr key={d.date}>
                        <td>{d.date}</td>
                        <td>{number(d.used)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </details>
          </section>
          <section class="card" aria-labelledby="keys-usage-title">
            <h2 id="keys-usage-title">By key</h2>
            {u.keys.length === 0 ? (
              <p>No requests yet this cycle.</p>
            ) : (
              <div class="table-wrap">
                <table>
                  <thead>
                    <tr>
                      <th scope="col">Key</th>
                      <th scope="col">Requests</th>
                    </tr>
                  </thead>
                  <tbody>
                    {u.keys.map((k) => (
                      <tr key={k.key_id}>
                        <td>
                          {k.name ?? 'Deleted key'} <code class="hint">{k.key_id}</code>
                        </td>
                        <td>{number(k.used)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </section>
          {u.apps.length > 0 && (
            <section class="card" aria-labelledby="apps-usage-title">
              <h2 id="apps-usage-title">By OAuth app</h2>
              <div class="table-wrap">
                <table>
                  <thead>
                    <tr>
                      <th scope="col">App</th>
                      <th scope="col">Requests</th>
                    </tr>
                  </thead>
                  <tbody>
                    {u.apps.map((a) => (
                      <tr key={a.app_id}>
                        <td>
                          {a.name ?? 'Deleted app'} <code class="hint">{a.app_id}</code>
                        </td>
                        <td>{number(a.used)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </section>
          )}
        </>
      )}
    </>
  );
}

function Bar(props: { value: number; max: number; label: string }) {
  const share = props.max > 0 ? Math.min(1, props.value / props.max) : 0;
  const percent = Math.round(share * 100);
  return (
    <svg class={`bar ${share >= 1 ? 'full' : share >= 0.8 ? 'high' : ''}`} viewBox="0 0 100 8" preserveAspectRatio="none" role="img" aria-label={`${props.label}: ${percent} %`}>
      <rect x="0" y="0" width="100" height="8" rx="2" class="track" />
      <rect x="0" y="0" width={share * 100} height="8" rx="2" class="fill" />
    </svg>
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
