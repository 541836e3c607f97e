// The first-start banner: printed once, on the first start of an empty store; never logged, never shown again.
import type { Config } from './config.js';

export interface Bootstrapped {
  account_id: string;
  user_id: string;
  api_key: string;
  password: string;
}

export function printBanner(config: Config, baseUrl: string, created: Bootstrapped): void {
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
