// Where a webhook may be sent (CONTRACT.md §10): https only, and never to a private, loopback,
// link-local or otherwise non-public address, however it is spelled (the URL parser already turns
// decimal, octal and hex IPv4 forms into dotted quads) or whatever a host name resolves to.
// Checked at registration and again before every attempt, whose connection then goes to exactly
// the addresses checked, so a DNS answer that changes in between (rebinding) cannot slip past.
import { BlockList, isIP } from 'node:net';
import { lookup } from 'node:dns/promises';

/** Resolves a host name to every address it has (A and AAAA); injected, so tests can play a rebinding DNS. */
export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

/** The system's resolver (getaddrinfo, as every other program on the host would resolve the name). */
export const systemResolver: Resolver = (hostname) => lookup(hostname, { all: true, verbatim: true });

export interface Target {
  url: URL;
  /** Checked addresses to connect to, IPv4 first; empty for an IP literal (it is its own address). */
  addresses: { address: string; family: 4 | 6 }[];
}

/** A URL or address that may not be used; the message says why, for people. */
export class TargetRefused extends Error {
  constructor(
    message: string,
    /** `malformed`: not a URL at all; `refused`: a URL that breaks a rule. */
    readonly kind: 'malformed' | 'refused' = 'refused',
  ) {
    super(message);
    this.name = 'TargetRefused';
  }
}

// Special-purpose ranges that are not globally reachable (RFC 6890 and its updates).
const V4_BLOCKED: [string, number][] = [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15],
  ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
];
const V6_BLOCKED: [string, number][] = [
  ['::', 96], ['64:ff9b:1::', 48], ['100::', 64], ['2001::', 23], ['2001:db8::', 32], ['3fff::', 20],
  ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8],
];
const blocked = new BlockList();
for (const [net, bits] of V4_BLOCKED) blocked.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of V6_BLOCKED) blocked.addSubnet(net, bits, 'ipv6');

/** The eight 16-bit words of an IPv6 address (which may end in a dotted quad). */
function ipv6Words(address: string): number[] {
  let text = address;
  const quad = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (quad) {
    const [a, b, c, d] = quad[1]!.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, quad.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((w) => parseInt(w, 16)));
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

const v4From = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;

/** An IPv4 address carried inside an IPv6 one (mapped, NAT64, 6to4), which is what a connection reaches. */
function embeddedV4(words: number[]): string | undefined {
  const [w0, w1, w2, w3, w4, w5, w6, w7] = words as [number, number, number, number, number, number, number, number];
  if (w0 === 0 && w1 === 0 && w2 === 0 && w3 === 0 && w4 === 0 && w5 === 0xffff) return v4From(w6, w7);
  if (w0 === 0x64 && w1 === 0xff9b && w2 === 0 && w3 === 0 && w4 === 0 && w5 === 0) return v4From(w6, w7);
  if (w0 === 0x2002) return v4From(w1, w2);
  return undefined;
}

/** True for a globally reachable unicast address; false for anything private, local or special. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !blocked.check(address, 'ipv4');
  if (family !== 6 || address.includes('%')) return false;
  const v4 = embeddedV4(ipv6Words(address));
  if (v4 !== undefined) return isPublicAddress(v4);
  return !blocked.check(address, 'ipv6');
}

/** Parses and checks the URL's form: https only (http too when private targets are allowed), no credentials. */
export function parseTargetUrl(text: string, allowPrivate: boolean): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new TargetRefused('url must be an absolute URL, such as https://example.com/webhooks.', 'malformed');
  }
  const schemes = allowPrivate ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol)) throw new TargetRefused('url must use https.');
  if (url.username !== '' || url.password !== '') {
    throw new TargetRefused('url must not contain credentials; verify deliveries with the signing secret instead.');
  }
  return url;
}

/** The URL's host as an address, when it is an IP literal. */
function literalAddress(url: URL): string | undefined {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return isIP(host) ? host : undefined;
}

/**
 * Checks `text` and resolves its host, once; every address it resolves to must be public (unless
 * `allowPrivate`). Throws TargetRefused with the reason otherwise.
 */
export async function resolveTarget(text: string, allowPrivate: boolean, resolve: Resolver = systemResolver): Promise<Target> {
  const url = parseTargetUrl(text, allowPrivate);
  const literal = literalAddress(url);
  if (literal !== undefined) {
    if (!allowPrivate && !isPublicAddress(literal)) throw new TargetRefused(`url points to ${literal}, which is not a public address.`);
    return { url, addresses: [] };
  }
  let found: { address: string; family: number }[];
  try {
    found = await resolve(url.hostname);
  } catch (error) {
    const code = (error as { code?: string }).code ?? 'error';
    throw new TargetRefused(`The host ${url.hostname} could not be resolved (${code}).`);
  }
  if (found.length === 0) throw new TargetRefused(`The host ${url.hostname} could not be resolved.`);
  const refused = allowPrivate ? undefined : found.find((a) => !isPublicAddress(a.address));
  if (refused) throw new TargetRefused(`The host ${url.hostname} resolves to ${refused.address}, which is not a public address.`);
  const addresses = found.map((a) => ({ address: a.address, family: a.family === 6 ? (6 as const) : (4 as const) }));
  addresses.sort((a, b) => a.family - b.family);
  return { url, addresses };
}
