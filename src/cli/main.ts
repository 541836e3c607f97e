#!/usr/bin/env node
// The `cms` administration command: same configuration as the server, JSON on stdout, a clear
// message on stderr and a non-zero exit on error.
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, PLANS, type Plan } from '../config.js';
import { DomainError } from '../domain/errors.js';
import { CliUsageError, describeClientError, PartialFailure, runContent, runTypes } from './content.js';
import { DEFAULT_DELIVERY_CACHE_SECONDS, MAX_DELIVERY_CACHE_SECONDS } from '../domain/publishing/delivery.js';

const USAGE = `Usage:
  cms content …   (talks to a running service over HTTPS; \`cms content help\` lists its commands)
  cms types generate [--type T]... [--out FILE]   (TypeScript types of items with their typed fields, from a running service)
  cms accounts create --email <e> [--name <n>] [--plan free|basic|pro|enterprise] [--rate-limit <per hour>] [--quota <per month>]
  cms accounts plan --account <id> [--plan <plan> [--rate-limit N] [--quota N]] [--delivery-cache-seconds N|default] [--storage <bytes>|default]
  cms keys create --user <user id or e-mail> [--name <n>] [--scopes a,b]
  cms users set-password --user <user id or e-mail>   (the password on standard input, or none to generate one)
  cms migrate`;

class UsageError extends CliUsageError {}

function positiveInt(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new UsageError(`--${name} must be a whole number of 1 or more`);
  return Number(value);
}

/** Seconds public caches keep delivery answers: 0–86400, or "default" (60). */
function deliveryCacheSeconds(value: string | undefined): number | null | undefined {
  if (value === undefined) return undefined;
  if (value === 'default') return null;
  if (!/^\d+$/.test(value) || Number(value) > MAX_DELIVERY_CACHE_SECONDS) throw new UsageError('--delivery-cache-seconds must be a whole number from 0 to 86400, or "default"');
  return Number(value);
}

function plan(value: string | undefined): Plan | undefined {
  if (value === undefined) return undefined;
  if (!(PLANS as readonly string[]).includes(value)) throw new UsageError(`--plan must be one of ${PLANS.join(', ')}`);
  return value as Plan;
}

function required(name: string, value: string | undefined): string {
  if (value === undefined || value === '') throw new UsageError(`--${name} is required`);
  return value;
}

/** A password piped in (one trailing newline dropped); undefined when standard input is a terminal or empty. */
async function passwordFromStdin(): Promise<string | undefined> {
  if (process.stdin.isTTY) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
  return text === '' ? undefined : text;
}

async function run(argv: string[]): Promise<unknown> {
  const [group, action, ...rest] = argv;
  // Content commands are a client of a running service (CMS_URL, CMS_API_KEY), never of the database.
  if (group === 'content') return runContent(argv.slice(1));
  if (group === 'types') return runTypes(argv.slice(1));
  const { values } = parseArgs({
    args: rest,
    strict: true,
    options: {
      email: { type: 'string' },
      name: { type: 'string' },
      plan: { type: 'string' },
      'rate-limit': { type: 'string' },
      quota: { type: 'string' },
      account: { type: 'string' },
      user: { type: 'string' },
      scopes: { type: 'string' },
      'delivery-cache-seconds': { type: 'string' },
      storage: { type: 'string' },
    },
  });
  const config = loadConfig();
  const command = group === 'migrate' ? 'migrate' : `${group} ${action}`;

  if (command === 'migrate') {
    // The service's code is loaded only by the commands that use it: `cms content` starts in a fraction of the time.
    const { openStore } = await import('../storage/db.js');
    const store = openStore(config.store);
    try {
      return { applied: await store.migrate() };
    } finally {
      await store.close();
    }
  }

  const known = ['accounts create', 'accounts plan', 'keys create', 'users set-password'];
  if (!known.includes(command)) throw new UsageError(`unknown command "${argv.join(' ')}"`);
  const { openServices } = await import('../services.js');
  const services = await openServices(config);
  try {
    switch (command) {
      case 'accounts create':
        return await services.accounts.createAccount({
          email: required('email', values.email),
          name: values.name,
          plan: plan(values.plan),
          rateLimit: positiveInt('rate-limit', values['rate-limit']),
          quota: positiveInt('quota', values.quota),
        });
      case 'accounts plan': {
        const account = required('account', values.account);
        const cache = deliveryCacheSeconds(values['delivery-cache-seconds']);
        // --delivery-cache-seconds alone changes only that; --plan (with its overrides) as before.
        const result: Record<string, unknown> = { account_id: account };
        const storage = values.storage === undefined ? undefined : values.storage === 'default' ? null : positiveInt('storage', values.storage)!;
        if (values.plan === undefined && cache === undefined && storage === undefined) throw new UsageError('--plan, --delivery-cache-seconds or --storage is required');
        if (storage !== undefined) {
          // The account's own media storage quota in bytes; `default` goes back to the plan's.
          await services.media.media.setQuota(account, storage);
          result.storage_quota_bytes = storage;
        }
        if (values.plan !== undefined) {
          const newPlan = plan(values.plan)!;
          const rateLimit = positiveInt('rate-limit', values['rate-limit']);
          const quota = positiveInt('quota', values.quota);
          await services.accounts.setPlan(account, newPlan, rateLimit, quota);
          Object.assign(result, { plan: newPlan, rate_limit: rateLimit ?? null, quota: quota ?? null });
        }
        if (cache !== undefined) {
          await services.accounts.setDeliveryCacheSeconds(account, cache);
          result.delivery_cache_seconds = cache ?? DEFAULT_DELIVERY_CACHE_SECONDS;
        }
        return result;
      }
      case 'users set-password': {
        const user = required('user', values.user);
        const result = await services.accounts.setPassword(user, await passwordFromStdin());
        // A new password signs the user out everywhere.
        const ended = await services.sessions.endAll(result.account_id, result.user_id);
        return { ...result, sessions_ended: ended };
      }
      default: {
        const scopes = values.scopes?.split(',').map((s) => s.trim()).filter(Boolean);
        return await services.accounts.createKeyForUser(required('user', values.user), values.name ?? 'CLI key', scopes);
      }
    }
  } finally {
    await services.close();
  }
}

run(process.argv.slice(2)).then(
  (result) => {
    if (result instanceof PartialFailure) {
      process.stdout.write(`${JSON.stringify(result.output, null, 2)}\n`);
      console.error(`cms: ${result.message}`);
      process.exitCode = 1;
      return;
    }
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  },
  (error: unknown) => {
    const client = describeClientError(error);
    if (client !== undefined) {
      console.error(`cms: ${client}`);
    } else if (error instanceof CliUsageError || (error instanceof TypeError && (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS'))) {
      console.error(`cms: ${error.message}\n\n${error instanceof CliUsageError && error.usage ? error.usage : USAGE}`);
    } else if (error instanceof ConfigError) {
      console.error(`cms: configuration error: ${error.message}`);
    } else if (error instanceof DomainError) {
      const details = error.errors?.map((e) => ` ${e.field}: ${e.message}`).join(';') ?? '';
      console.error(`cms: ${error.message}${details}`);
    } else {
      console.error(`cms: ${error instanceof Error ? error.message : String(error)}`);
    }
    process.exitCode = 1;
  },
);
