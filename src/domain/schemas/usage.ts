// The usage report (GET /v1/usage, CONTRACT.md §8): one source for the type and the OpenAPI document.
import Type, { type Static } from 'typebox';
import { Timestamp } from './common.js';

export const Usage = Type.Object(
  {
    plan: Type.String({ description: 'free, basic, pro or enterprise.' }),
    period_start: { ...Timestamp, description: 'Start of the current billing cycle: 00:00 UTC on the account\'s billing day.' },
    period_end: { ...Timestamp, description: 'When the cycle ends and the quota renews.' },
    used: Type.Integer({ description: 'Requests of this cycle that ended 2xx, plus those still running (this one included).' }),
    quota: Type.Integer({ description: 'Requests allowed per cycle.' }),
    remaining: Type.Integer({ description: 'quota − used, never below 0.' }),
    rate_limit: Type.Union(
      [
        Type.Object(
          {
            limit: Type.Integer({ description: 'Requests per hour.' }),
            remaining: Type.Integer({ description: 'Left in the current window, this request counted (as X-RateLimit-Remaining).' }),
            reset: Type.Integer({ description: 'When the window closes, Unix seconds (as X-RateLimit-Reset).' }),
          },
          { additionalProperties: false },
        ),
        Type.Null(),
      ],
      { description: 'The hourly window; null when rate limits are switched off (RATE_LIMITS=off).' },
    ),
    keys: Type.Array(
      Type.Object(
        {
          key_id: Type.String({ description: 'An API key id, or `dashboard:<user id>` for what that user did signed in to the dashboard.' }),
          name: Type.Union([Type.String(), Type.Null()], { description: 'null once the key is deleted with its user; `Dashboard` for the dashboard.' }),
          used: Type.Integer({ description: 'Requests of this cycle made with the key that ended 2xx.' }),
        },
        { additionalProperties: false },
      ),
      { description: 'Keys that were used this cycle, most used first: every key for admins and owners, otherwise your own.' },
    ),
    apps: Type.Array(
      Type.Object(
        {
          app_id: Type.String({ description: 'An OAuth app (app_…) whose tokens acted in this account; it may be registered in another account.' }),
          name: Type.Union([Type.String(), Type.Null()], { description: 'null once the app is deleted.' }),
          used: Type.Integer({ description: "Requests of this cycle made with the app's tokens that ended 2xx." }),
        },
        { additionalProperties: false },
      ),
      { description: "OAuth apps whose tokens were used this cycle, most used first: every person's use for admins and owners, otherwise the use of tokens you authorized." },
    ),
    days: Type.Array(
      Type.Object(
        {
          date: Type.String({ format: 'date', description: 'A UTC day, YYYY-MM-DD.' }),
          used: Type.Integer({ description: "Requests of the account that day that ended 2xx (all keys and dashboard sessions)." }),
        },
        { additionalProperties: false },
      ),
      { description: 'Every UTC day of the current cycle up to today, oldest first, zeros included. The running count of a day may lag by a few seconds.' },
    ),
    deprecated_calls: Type.Array(
      Type.Object(
        {
          method: Type.String({ description: 'The deprecated route\'s method.' }),
          path: Type.String({ description: 'The route as registered, `:name` for a parameter (`/v1/content/:id`).' }),
          deprecated_at: { ...Timestamp, description: 'When the route was deprecated (its `Deprecation` header).' },
          sunset: Type.Union([Timestamp, Type.Null()], { description: 'When it stops working (its `Sunset` header); null when not set.' }),
          link: Type.Union([Type.String(), Type.Null()], { description: 'The migration notes (its `Link` header); null when not set.' }),
          calls: Type.Integer({ description: 'Calls this cycle, whatever their status, by the keys listed.' }),
          last_called_at: { ...Timestamp, description: 'The latest of those calls.' },
          keys: Type.Array(
            Type.Object(
              {
                key_id: Type.String({ description: 'An API key id, or `dashboard:<user id>` for calls made signed in to the dashboard.' }),
                name: Type.Union([Type.String(), Type.Null()], { description: 'null once the key is deleted with its user; `Dashboard` for the dashboard.' }),
                calls: Type.Integer(),
                last_called_at: Timestamp,
              },
              { additionalProperties: false },
            ),
            { description: 'Who made the calls, most calls first.' },
          ),
        },
        { additionalProperties: false },
      ),
      {
        description:
          'Calls this cycle to routes deprecated in the configuration (DEPRECATIONS), per route and key, most called first; empty when none. ' +
          'Admins and owners see every key, others their own keys. The owners and admins are told by e-mail (docs/email.md).',
      },
    ),
    storage: Type.Object(
      {
        used_bytes: Type.Integer({ description: 'Bytes of media the account stores (exact; a deletion frees its bytes at once).' }),
        quota_bytes: Type.Integer({ description: "Bytes the plan (or the account's own quota) allows." }),
      },
      { additionalProperties: false, description: 'Media storage (docs/media.md).' },
    ),
  },
  { additionalProperties: false },
);
export type Usage = Static<typeof Usage>;
