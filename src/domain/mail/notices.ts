// The account notices that follow from something that happened (CONTRACT.md §16), each queued in
// the transaction of its cause: quota alerts at 80 % and 100 % (an EventSink on the event log, so
// they go with each quota `api_key.usage_alert`), and a webhook endpoint disabled after failing
// (told by the delivery side). "Your key expires in 7 days" has no cause to ride on: a periodic
// check finds those keys, once per key across instances thanks to a marker.
import type { Store, Tx } from '../../storage/db.js';
import type { MailRepository } from '../../storage/mail-repository.js';
import type { EventSink, StoredEvent } from '../events/event-log.js';
import type { Clock } from '../ids.js';
import type { UsageAlert } from '../limits/usage-alerts.js';
import type { EndpointDisabledListener } from '../webhooks/deliveries.js';
import type { Audience } from './audience.js';
import type { MailLinks } from './links.js';
import { keyExpiring, quotaAlert, webhookDisabled } from './messages.js';
import type { MailOutbox } from './outbox.js';

/** A key's owner hears of its end this long before. */
export const KEY_EXPIRY_NOTICE_MS = 7 * 86_400_000;
const KEY_MARKER = 'key_expiring:';

export class AccountNotices implements EventSink, EndpointDisabledListener {
  constructor(
    private readonly outbox: MailOutbox,
    private readonly audience: Audience,
    private readonly links: MailLinks,
  ) {}

  /** Quota alerts: one message per owner and admin for each quota `api_key.usage_alert` event. */
  async recorded(tx: Tx, events: StoredEvent[]): Promise<void> {
    const alerts = events.filter((e) => e.type === 'api_key.usage_alert' && e.data.kind === 'quota');
    if (alerts.length === 0) return;
    const accountId = alerts[0]!.accountId;
    const admins = await this.audience.admins(tx, accountId);
    for (const event of alerts) {
      const alert = event.data as unknown as UsageAlert;
      const content = quotaAlert({ threshold: alert.threshold ?? 100, used: alert.used, limit: alert.limit, periodEnd: alert.period_end, usageUrl: this.links.dashboard('usage') });
      await this.outbox.queue(tx, accountId, admins.map((to) => ({ kind: 'quota_alert', to, content })));
    }
  }

  async endpointDisabled(tx: Tx, accountId: string, endpoint: { url: string; description: string }, reason: 'gone' | 'failing', at: string): Promise<void> {
    const content = webhookDisabled({ url: endpoint.url, description: endpoint.description, reason, at, settingsUrl: this.links.dashboard('settings') });
    await this.outbox.queue(tx, accountId, (await this.audience.admins(tx, accountId)).map((to) => ({ kind: 'webhook_disabled', to, content })));
  }
}

export class KeyExpiryNotices {
  constructor(
    private readonly store: Store,
    private readonly outbox: MailOutbox,
    private readonly markers: MailRepository,
    private readonly links: MailLinks,
    private readonly clock: Clock,
  ) {}

  /** Tells the owner of every live key that expires within 7 days, once per key (run periodically on every instance). */
  async run(): Promise<void> {
    const now = this.clock();
    const until = new Date(now.getTime() + KEY_EXPIRY_NOTICE_MS).toISOString();
    const keys = await this.store.run((db) => this.markers.keysExpiringAnyAccount(db, now.toISOString(), until, KEY_MARKER));
    for (const key of keys) {
      await this.store.transaction(async (tx) => {
        if (!(await this.markers.mark(tx, key.account_id, `${KEY_MARKER}${key.id}`, now.toISOString()))) return;
        const content = keyExpiring({ name: key.name, prefix: key.prefix, expiresAt: key.expires_at!, keysUrl: this.links.dashboard('keys') });
        await this.outbox.queue(tx, key.account_id, [{ kind: 'key_expiring', to: key.email, content }]);
      });
    }
  }
}
