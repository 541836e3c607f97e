// Every message the service sends (CONTRACT.md §16), each defined once: its subject says what
// happened, its paragraphs what it means and what to do. Rendered by template.tsx.
import { SERVICE_NAME, type MailContent } from './template.js';

const WHEN = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' });
const DAY = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' });

/** "1 June 2027 at 09:15 UTC". */
export function when(date: Date | string): string {
  return `${WHEN.format(new Date(date))} UTC`;
}

/** "1 June 2027". */
export function day(date: Date | string): string {
  return DAY.format(new Date(date));
}

/** Names in subjects are cut here (issue 21, P3-4): a subject says who, not what they chose to write. */
export const SUBJECT_NAME_MAX = 60;
const GRAPHEMES = new Intl.Segmenter('en', { granularity: 'grapheme' });

/**
 * Free text someone chose (a person's name, a key's, an item's title) as plain text for a subject:
 * control and format characters (line breaks, bidi overrides, zero-width ones) gone, white space
 * collapsed, at most SUBJECT_NAME_MAX characters (whole graphemes), "…" where it was cut.
 */
export function inSubject(name: string, max = SUBJECT_NAME_MAX): string {
  const plain = name.replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]+/gu, ' ').replace(/\s+/gu, ' ').trim();
  const graphemes = [...GRAPHEMES.segment(plain)].map((g) => g.segment);
  return graphemes.length <= max ? plain : `${graphemes.slice(0, max - 1).join('').trimEnd()}…`;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export const ROLE_WORDS: Record<string, string> = {
  owner: 'an owner',
  admin: 'an admin',
  editor: 'an editor',
  author: 'an author',
  viewer: 'a viewer',
};

export function invitation(p: { inviter: { name: string; email: string }; email: string; role: string; link: string; expiresAt: Date }): MailContent {
  return {
    subject: `${inSubject(p.inviter.name)} invited you to the ${SERVICE_NAME}`,
    blocks: [
      `${p.inviter.name} (${p.inviter.email}) added you to their account as ${ROLE_WORDS[p.role] ?? p.role}. Choose a password to sign in with ${p.email}.`,
      { action: { label: 'Choose your password', url: p.link } },
      `The link works once and expires on ${when(p.expiresAt)}. If it has expired, ask ${p.inviter.name} to send a new invitation.`,
    ],
    footer: `You received this because ${p.inviter.email} invited ${p.email}. If you did not expect it, ignore this e-mail: nothing happens until a password is chosen.`,
  };
}

export function passwordReset(p: { email: string; link: string; expiresAt: Date }): MailContent {
  return {
    subject: `Reset your ${SERVICE_NAME} password`,
    blocks: [
      `Someone asked to reset the password of ${p.email}. If it was you, choose a new password:`,
      { action: { label: 'Choose a new password', url: p.link } },
      `The link works once and expires on ${when(p.expiresAt)}. Setting a new password signs you out everywhere else.`,
    ],
    footer: `You received this because a password reset was requested for ${p.email} on the sign-in page. If it was not you, ignore this e-mail: your password stays as it is.`,
  };
}

export interface DeprecatedRoute {
  method: string;
  path: string;
  deprecatedAt: Date;
  sunset?: Date;
  link?: string;
}

/** A key or app that called a deprecated route: its description and its latest call. */
export interface Caller {
  who: string;
  lastCalledAt: string;
}

function routeFacts(route: DeprecatedRoute): { facts: [string, string][] } {
  const facts: [string, string][] = [
    ['Route', `${route.method} ${route.path}`],
    ['Deprecated since', day(route.deprecatedAt)],
    ['Sunset', route.sunset ? when(route.sunset) : 'not set yet'],
  ];
  if (route.link) facts.push(['Migration notes', route.link]);
  return { facts };
}

function callerList(callers: Caller[]): { list: string[] } {
  return { list: callers.map((c) => `${c.who}, last call on ${when(c.lastCalledAt)}`) };
}

export function deprecationNotice(p: { route: DeprecatedRoute; callers: Caller[]; usageUrl: string; now: Date }): MailContent {
  const route = `${p.route.method} ${p.route.path}`;
  const sunset = p.route.sunset;
  const end = !sunset ? '' : sunset > p.now ? ` It will stop working on ${day(sunset)}.` : ` It reached its sunset on ${day(sunset)} and may stop working at any time.`;
  return {
    subject: `Your account called a deprecated API route: ${route}`,
    blocks: [
      `Your account has called ${route}, which is deprecated.${end} Please move these callers to its replacement:`,
      routeFacts(p.route),
      `Called in the last 30 days by:`,
      callerList(p.callers),
      { action: { label: 'See the calls in Usage', url: p.usageUrl } },
    ],
    footer: `You received this as an owner or admin of the account. While the calls continue, this notice comes at most once a week per route, with reminders 30, 7 and 1 days before the sunset.`,
  };
}

export function deprecationReminder(p: { route: DeprecatedRoute & { sunset: Date }; daysLeft: number; callers: Caller[]; usageUrl: string }): MailContent {
  const route = `${p.route.method} ${p.route.path}`;
  return {
    subject: `${route} stops working in ${plural(p.daysLeft, 'day')}, on ${day(p.route.sunset)}`,
    blocks: [
      `Your account called ${route} in the last 30 days. The route reaches its sunset on ${when(p.route.sunset)}; after that, calls to it fail.`,
      routeFacts(p.route),
      `Called in the last 30 days by:`,
      callerList(p.callers),
      { action: { label: 'See the calls in Usage', url: p.usageUrl } },
    ],
    footer: `You received this as an owner or admin of an account that called the route in the last 30 days. Reminders come 30, 7 and 1 days before the sunset.`,
  };
}

export function quotaAlert(p: { threshold: number; used: number; limit: number; periodEnd: string; usageUrl: string }): MailContent {
  const full = p.threshold >= 100;
  return {
    subject: full ? `Your account has used its whole monthly quota of ${p.limit} requests` : `Your account has used ${p.threshold} % of its monthly quota`,
    blocks: [
      full
        ? `Your account has used all ${p.limit} requests of this billing cycle. Until the quota renews on ${when(p.periodEnd)}, API requests are refused with 429 quota_exceeded.`
        : `Your account has used ${p.used} of its ${p.limit} requests this billing cycle. The quota renews on ${when(p.periodEnd)}; once it is used up, requests are refused until then.`,
      { facts: [['Used', `${p.used} of ${p.limit}`], ['Renews', when(p.periodEnd)]] },
      `To get more, move the account to a larger plan (ask the operator of this service).`,
      { action: { label: 'See usage', url: p.usageUrl } },
    ],
    footer: `You received this as an owner or admin of the account. Quota alerts come at 80 % and 100 % of each cycle's quota, once each.`,
  };
}

export function webhookDisabled(p: { url: string; description: string; reason: 'gone' | 'failing'; at: string; settingsUrl: string }): MailContent {
  const why =
    p.reason === 'gone'
      ? 'it answered 410 Gone, which means the receiver asked to get nothing more'
      : 'every delivery attempt to it has failed for 3 days';
  return {
    subject: `Webhook endpoint disabled: ${inSubject(p.url)}`,
    blocks: [
      `The webhook endpoint ${p.url} was disabled on ${when(p.at)} because ${why}. It receives no events until it is enabled again; its pending deliveries were cancelled.`,
      { facts: [['Endpoint', p.url], ...(p.description ? ([['Description', p.description]] as [string, string][]) : []), ['Disabled', when(p.at)]] },
      `Check the delivery log for the errors, fix the receiver, then enable the endpoint again under API Settings.`,
      { action: { label: 'Open API Settings', url: p.settingsUrl } },
    ],
    footer: `You received this as an owner or admin of the account the endpoint belongs to.`,
  };
}

export function keyExpiring(p: { name: string; prefix: string; expiresAt: string; keysUrl: string }): MailContent {
  return {
    subject: `Your API key “${inSubject(p.name)}” expires on ${day(p.expiresAt)}`,
    blocks: [
      `Your API key “${p.name}” (${p.prefix}…) expires on ${when(p.expiresAt)}. From then on, requests made with it are refused with 401.`,
      `Generate a new key under API Keys and put it where this one is used, before it expires.`,
      { action: { label: 'Open API Keys', url: p.keysUrl } },
    ],
    footer: `You received this because the key belongs to you. It is sent once, 7 days before a key expires.`,
  };
}

export function scheduleFailed(p: { title: string; id: string; action: 'publish' | 'unpublish'; dueAt: string; reason: string; forSomeoneElse: string | null; contentUrl: string }): MailContent {
  const doing = p.action === 'publish' ? 'publish' : 'archive';
  return {
    subject: `Scheduled ${p.action === 'publish' ? 'publication' : 'unpublication'} failed: “${inSubject(p.title)}”`,
    blocks: [
      `“${p.title}” was to be ${doing === 'publish' ? 'published' : 'archived'} on ${when(p.dueAt)}, but it could not be: ${p.reason}`,
      `The item stays as it was, and the schedule is no longer pending. Set the time again (or ${doing} the item by hand) once the cause is fixed.`,
      { facts: [['Item', `${p.title} (${p.id})`], ['Due', when(p.dueAt)], ...(p.forSomeoneElse ? ([['Scheduled by', p.forSomeoneElse]] as [string, string][]) : [])] },
      { action: { label: 'Open Content', url: p.contentUrl } },
    ],
    footer: p.forSomeoneElse
      ? `You received this as an owner or admin of the account: the person who scheduled it (${p.forSomeoneElse}) is no longer a user of it.`
      : `You received this because you scheduled it.`,
  };
}
