// `cms content …`: content from the command line, as a client of a running service over HTTPS
// (CMS_URL, CMS_API_KEY) through the typed client package — never the database. JSON on stdout,
// a clear message on stderr and exit 1 on error; a progress bar on stderr for exports and imports.
import fs from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { CmsApiError, createCmsClient, type CmsClient, type ContentCreate, type ContentListQuery, type ContentType, type ContentUpdate } from '@cms-service/client';
import { exportContent, importContent } from './content-sync.js';
import { generateTypes, TYPES_USAGE } from './types-generate.js';

export const CONTENT_USAGE = `Usage (CMS_URL and CMS_API_KEY in the environment; for a self-signed certificate also NODE_EXTRA_CA_CERTS=<its PEM file>):
  cms content list [--type T] [--status S] [--q TEXT] [--sort FIELDS] [--limit N] [--cursor C] [--all]
  cms content get <id> [--render html]
  cms content create --title T --type T [--status draft|published] [--slug S] [--file F | --content TEXT]   (else the body on standard input)
  cms content update <id> [--title T] [--type T] [--status S] [--slug S] [--file F | --content TEXT] [--if-match VERSION]
  cms content publish <id> [--if-match VERSION]
  cms content schedule <id> <time> [--unpublish-at TIME] [--if-match VERSION]   (time: ISO 8601, e.g. 2027-06-01T09:00:00Z)
  cms content schedule <id> --unpublish-at TIME | --clear [--if-match VERSION]
  cms content archive <id> [--if-match VERSION]
  cms content delete <id> [--if-match VERSION]
  cms content export --dir DIR [--type T] [--status S] [--q TEXT]
  cms content import --dir DIR`;

/** A mistake in how the command was called: the message, then the usage. */
export class CliUsageError extends Error {
  constructor(
    message: string,
    readonly usage?: string,
  ) {
    super(message);
  }
}

/** A command that finished with output to print and a non-zero exit (some imports failed). */
export class PartialFailure {
  constructor(
    readonly output: unknown,
    readonly message: string,
  ) {}
}

const OPTIONS = {
  type: { type: 'string' },
  status: { type: 'string' },
  q: { type: 'string' },
  sort: { type: 'string' },
  limit: { type: 'string' },
  cursor: { type: 'string' },
  all: { type: 'boolean' },
  render: { type: 'string' },
  title: { type: 'string' },
  file: { type: 'string' },
  content: { type: 'string' },
  'if-match': { type: 'string' },
  dir: { type: 'string' },
  slug: { type: 'string' },
  'unpublish-at': { type: 'string' },
  clear: { type: 'boolean' },
} as const;

function clientFromEnvironment(): CmsClient {
  const baseUrl = process.env.CMS_URL;
  const token = process.env.CMS_API_KEY;
  if (!baseUrl) throw new CliUsageError('CMS_URL must be set to the service\'s base URL, e.g. https://127.0.0.1:8443', CONTENT_USAGE);
  if (!token) throw new CliUsageError('CMS_API_KEY must be set to an API key (cms_live_…) or an OAuth access token', CONTENT_USAGE);
  if (!/^https?:\/\//.test(baseUrl)) throw new CliUsageError(`CMS_URL must be an https:// URL (got "${baseUrl}")`, CONTENT_USAGE);
  return createCmsClient({ baseUrl, token, userAgent: 'cms-cli' });
}

function version(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.replace(/^W\//, '').replace(/"/g, '');
  if (!/^\d+$/.test(trimmed) || Number(trimmed) < 1) throw new CliUsageError(`--if-match must be a version number (got "${value}")`, CONTENT_USAGE);
  return Number(trimmed);
}

function one(positionals: string[], what: string): string {
  if (positionals.length !== 1) throw new CliUsageError(`expected exactly one ${what}`, CONTENT_USAGE);
  return positionals[0]!;
}

async function body(values: { file?: string; content?: string }, required: boolean): Promise<string | undefined> {
  if (values.file !== undefined && values.content !== undefined) throw new CliUsageError('give --file or --content, not both', CONTENT_USAGE);
  if (values.file !== undefined) return fs.readFile(values.file, 'utf8');
  if (values.content !== undefined) return values.content;
  if (!required) return undefined;
  if (process.stdin.isTTY) throw new CliUsageError('give the content with --file, --content or on standard input', CONTENT_USAGE);
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** `cms types generate`: the content types' TypeScript types, from the service's models. */
export async function runTypes(argv: string[]): Promise<unknown> {
  const [command, ...rest] = argv;
  if (command !== 'generate') throw new CliUsageError(command === undefined ? 'a types command is required' : `unknown command "types ${command}"`, TYPES_USAGE);
  const { values } = parseArgs({ args: rest, options: { type: { type: 'string', multiple: true }, out: { type: 'string' } }, strict: true });
  const types = (values.type ?? []) as ContentType[];
  const unknown = types.filter((t) => !['blog', 'manual', 'whitepaper', 'strategy'].includes(t));
  if (unknown.length) throw new CliUsageError(`unknown content type(s): ${unknown.join(', ')}`, TYPES_USAGE);
  return generateTypes(clientFromEnvironment(), types, values.out ?? 'cms-content-types.ts');
}

export async function runContent(argv: string[]): Promise<unknown> {
  const [command, ...rest] = argv;
  if (command === undefined || command === 'help' || command === '--help') throw new CliUsageError('a content command is required', CONTENT_USAGE);
  const { values, positionals } = parseArgs({ args: rest, options: OPTIONS, strict: true, allowPositionals: true });
  const cms = clientFromEnvironment();
  const ifMatch = { ifMatch: version(values['if-match']) };
  switch (command) {
    case 'list': {
      const query = {
        type: values.type,
        status: values.status,
        q: values.q,
        sort: values.sort,
        cursor: values.cursor,
        limit: values.limit === undefined ? undefined : Number(values.limit),
      } as ContentListQuery;
      const defined = Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined)) as ContentListQuery;
      if (!values.all) return cms.content.list(defined);
      const items = [];
      for await (const item of cms.content.iterate(defined)) items.push(item);
      return items;
    }
    case 'get':
      return cms.content.get(one(positionals, 'content id'), values.render === undefined ? {} : { render: values.render as 'html' });
    case 'create': {
      const content = await body(values, true);
      return cms.content.create({ title: values.title, type: values.type, content, ...(values.status ? { status: values.status } : {}), ...(values.slug ? { slug: values.slug } : {}) } as ContentCreate);
    }
    case 'update': {
      const id = one(positionals, 'content id');
      const content = await body(values, false);
      const changes = Object.fromEntries(
        Object.entries({ title: values.title, type: values.type, status: values.status, slug: values.slug, content }).filter(([, v]) => v !== undefined),
      ) as ContentUpdate;
      return cms.content.update(id, changes, ifMatch);
    }
    case 'publish':
      return cms.content.publish(one(positionals, 'content id'), ifMatch);
    case 'schedule':
      return schedule(cms, positionals, values, ifMatch);
    case 'archive':
      return cms.content.archive(one(positionals, 'content id'), ifMatch);
    case 'delete': {
      const id = one(positionals, 'content id');
      await cms.content.delete(id, ifMatch);
      return { deleted: id };
    }
    case 'export':
    case 'import': {
      if (!values.dir) throw new CliUsageError(`--dir is required for ${command}`, CONTENT_USAGE);
      if (command === 'export') {
        const filter = Object.fromEntries(Object.entries({ type: values.type, status: values.status, q: values.q }).filter(([, v]) => v !== undefined));
        return exportContent(cms, values.dir, filter as ContentListQuery);
      }
      const summary = await importContent(cms, values.dir);
      return summary.failed.length ? new PartialFailure(summary, `${summary.failed.length} file(s) could not be imported; see "failed"`) : summary;
    }
    default:
      throw new CliUsageError(`unknown content command "${command}"`, CONTENT_USAGE);
  }
}

/** `schedule <id> <time>`: sets publish_at (and unpublish_at); `--clear` removes both. The service checks the times. */
function schedule(cms: CmsClient, positionals: string[], values: { 'unpublish-at'?: string; clear?: boolean }, options: { ifMatch?: number }) {
  const [id, at, ...extra] = positionals;
  if (id === undefined || extra.length) throw new CliUsageError('expected a content id and at most one time', CONTENT_USAGE);
  if (values.clear) {
    if (at !== undefined || values['unpublish-at'] !== undefined) throw new CliUsageError('--clear takes no time', CONTENT_USAGE);
    return cms.publishing.schedule(id, { publish_at: null, unpublish_at: null }, options);
  }
  if (at === undefined && values['unpublish-at'] === undefined) throw new CliUsageError('give the time to publish at, --unpublish-at, or --clear', CONTENT_USAGE);
  return cms.publishing.schedule(id, { ...(at !== undefined ? { publish_at: at } : {}), ...(values['unpublish-at'] !== undefined ? { unpublish_at: values['unpublish-at'] } : {}) }, options);
}

/** Words for what a client call ran into, or undefined for any other error. */
export function describeClientError(error: unknown): string | undefined {
  if (error instanceof CmsApiError) {
    const fields = error.errors.map((e) => ` ${e.field || 'body'}: ${e.message}`).join(';');
    return `${error.message}${fields} (${error.status} ${error.code}${error.requestId ? `, ${error.requestId}` : ''})`;
  }
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  if (error instanceof TypeError && cause?.code !== undefined) {
    if (/CERT|SELF_SIGNED|UNABLE_TO_VERIFY/.test(cause.code)) {
      return `the service's TLS certificate is not trusted (${cause.code}); for a local service's self-signed certificate run with NODE_EXTRA_CA_CERTS=data/tls-cert.pem`;
    }
    return `could not reach the service at ${process.env.CMS_URL}: ${cause.message ?? cause.code}`;
  }
  return undefined;
}
