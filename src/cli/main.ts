#!/usr/bin/env node
// The `cms` administration command: same configuration as the server, JSON on stdout, a clear
// message on stderr and a non-zero exit on error.
import { parseArgs } from 'node:util';
import { openServices } from '../services.js';
import { ConfigError, loadConfig, PLANS, type Plan } from '../config.js';
import { DomainError } from '../domain/errors.js';
import { openStore } from '../storage/db.js';
import { CliUsageError, describeClientError, PartialFailure, runContent } from './content.js';

const USAGE = `Usage:
  cms content …   (talks to a running service over HTTPS; \`cms content help\` lists its commands)
  cms accounts create --email <e> [--name <n>] [--plan free|basic|pro|enterprise] [--rate-limit <per hour>] [--quota <per month>]
  cms accounts plan --account <id> --plan <plan> [--rate-limit N] [--quota N]
  cms keys create --user <user id or e-mail> [--name <n>] [--scopes a,b]
  cms users set-password --user <user id or e-mail>   (the password on standard input, or none to generate one)
  cms migrate`;

class UsageError extends CliUsageError {}

function positiveInt(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new UsageError(`--${name} must be a whole number of 1 or more`);
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
    },
  });
  const config = loadConfig();
  const command = group === 'migrate' ? 'migrate' : `${group} ${action}`;

  if (command === 'migrate') {
    const store = openStore(config.store);
    try {
      return { applied: await store.migrate() };
    } finally {
      await store.close();
    }
  }

  const known = ['accounts create', 'accounts plan', 'keys create', 'users set-password'];
  if (!known.includes(command)) throw new UsageError(`unknown command "${argv.join(' ')}"`);
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
        const newPlan = plan(required('plan', values.plan))!;
        const rateLimit = positiveInt('rate-limit', values['rate-limit']);
        const quota = positiveInt('quota', values.quota);
        await services.accounts.setPlan(account, newPlan, rateLimit, quota);
        return { account_id: account, plan: newPlan, rate_limit: rateLimit ?? null, quota: quota ?? null };
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
