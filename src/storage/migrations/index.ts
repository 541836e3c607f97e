// The ordered list of migrations. Add a file, then add it here under the next number.
import type { Migration, MigrationProvider } from 'kysely';
import type { Dialect } from '../schema.js';
import { initial } from './001-initial.js';
import { contentCounts } from './002-content-counts.js';
import { events } from './003-events.js';
import { usage } from './004-usage.js';
import { webhooks } from './005-webhooks.js';
import { dashboard } from './006-dashboard.js';
import { oauth } from './007-oauth.js';
import { mail } from './008-mail.js';
import { contentSearch } from './009-content-search.js';
import { contentRevisions } from './010-content-revisions.js';
import { idempotencyKeys } from './011-idempotency-keys.js';
import { publishing } from './015-publishing.js';
import { contentModel } from './016-content-model.js';
import { jobs } from './017-jobs.js';
import { media } from './018-media.js';
import { fieldsSearch } from './019-fields-search.js';
import { jobFields } from './020-job-fields.js';
import { contentKeys } from './021-content-keys.js';

export function migrationProvider(dialect: Dialect): MigrationProvider {
  return {
    async getMigrations(): Promise<Record<string, Migration>> {
      return {
        '001-initial': initial(dialect),
        '002-content-counts': contentCounts(dialect),
        '003-events': events(dialect),
        '004-usage': usage(dialect),
        '005-webhooks': webhooks(dialect),
        '006-dashboard': dashboard(dialect),
        '007-oauth': oauth(dialect),
        '008-mail': mail(dialect),
        '009-content-search': contentSearch(dialect),
        '010-content-revisions': contentRevisions(dialect),
        '011-idempotency-keys': idempotencyKeys(dialect),
        '015-publishing': publishing(dialect),
        '016-content-model': contentModel(dialect),
        '017-jobs': jobs(dialect),
        '018-media': media(dialect),
        '019-fields-search': fieldsSearch(dialect),
        '020-job-fields': jobFields(),
        '021-content-keys': contentKeys(dialect),
      };
    },
  };
}
