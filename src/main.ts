#!/usr/bin/env node
// Start: config → createApp → listen → bootstrap on an empty store → graceful close on SIGTERM.
import { createApp } from './app.js';
import { ConfigError, loadConfig, publicUrlOf } from './config.js';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Configuration error: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }

  const app = await createApp(config);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.http.log.info({ signal }, 'shutting down');
    app.shutdown().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('shutdown failed', error);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));

  const listener = await app.listen();
  const baseUrl = publicUrlOf(config, listener.address.port);
  app.http.log.info({ base_url: baseUrl, store: config.store.kind }, 'listening');

  const created = await app.accounts.bootstrap(config.bootstrap.plan, config.bootstrap.email);
  if (created) {
    // Printed once, on the first start of an empty store; never logged, never shown again.
    console.log(
      [
        '',
        'First start: created an account, its owner, a dashboard password and an API key.',
        `  Base URL:   ${baseUrl}`,
        `  Account:    ${created.account_id} (plan ${config.bootstrap.plan})`,
        `  Owner:      ${created.user_id} <${config.bootstrap.email}>`,
        `  API key:    ${created.api_key}`,
        `  Dashboard:  ${baseUrl}/  sign in as ${config.bootstrap.email} with password ${created.password}`,
        'Store the key and the password safely: they are shown only this once',
        '(a new password: npx cms users set-password --user ' + config.bootstrap.email + ').',
        `Try: curl -k ${baseUrl}/v1/content -H "Authorization: Bearer ${created.api_key}"`,
        '',
      ].join('\n'),
    );
  }

}

main().catch((error: unknown) => {
  console.error(`Start-up failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
