// Bulk jobs (CONTRACT.md §21): the request that starts one and the job record.
import Type, { type Static } from 'typebox';
import { PagingQuery, StringEnum, Timestamp } from './common.js';
import { CONTENT_STATUSES, CONTENT_TYPES, ContentPagination, FIELD_FILTERS, MAX_QUERY_LENGTH, MAX_SLUG_LENGTH, WrittenFields } from './content.js';

export const JOB_ACTIONS = ['publish', 'archive', 'delete', 'set_fields'] as const;
export type JobAction = (typeof JOB_ACTIONS)[number];
export const JOB_STATES = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;
export type JobState = (typeof JOB_STATES)[number];

export const JobFilter = Type.Object(
  {
    type: Type.Optional(StringEnum(CONTENT_TYPES)),
    status: Type.Optional(StringEnum(CONTENT_STATUSES)),
    q: Type.Optional(Type.String({ minLength: 1, maxLength: MAX_QUERY_LENGTH, description: 'As q on GET /v1/content.' })),
    slug: Type.Optional(Type.String({ minLength: 1, maxLength: MAX_SLUG_LENGTH, description: 'As slug on GET /v1/content.' })),
  },
  {
    additionalProperties: false,
    // "fields.<name>" and "fields.<name>[op]": exactly as the list's query parameters (indexed fields of `type`).
    patternProperties: FIELD_FILTERS,
    description: 'The items of GET /v1/content with these filters (fields.<name>[op] keys as its query parameters, with type); {} is every item of the account.',
  },
);
export type JobFilter = Static<typeof JobFilter>;

export const BulkBody = Type.Object(
  {
    action: StringEnum(JOB_ACTIONS, { description: 'publish, archive, delete, or set_fields (set `fields` on) every matching item.' }),
    filter: JobFilter,
    fields: Type.Optional({
      ...WrittenFields,
      description: "set_fields only (and required there, with filter.type): values of the type's model fields, merged into each item's as an update's; null removes an optional field. Checked against the model when the job is created (422 on fields.<name>) and again on each item.",
    }),
  },
  { additionalProperties: false },
);
export type BulkBody = Static<typeof BulkBody>;

export const JobError = Type.Object(
  {
    id: Type.Union([Type.String(), Type.Null()], { description: 'The item it is about; null for the job as a whole (why it failed).' }),
    code: Type.String(),
    message: Type.String(),
  },
  { additionalProperties: false },
);

export const Job = Type.Object(
  {
    id: Type.String({ description: 'job_ followed by a lower-case ULID.' }),
    action: StringEnum(JOB_ACTIONS),
    status: StringEnum(JOB_STATES),
    total: Type.Integer({ description: 'Items matching the filter when the job was created.' }),
    done: Type.Integer({ description: 'Items handled so far (an item already in the wanted state counts as done).' }),
    failed: Type.Integer({ description: 'Items the action failed on (each in errors, up to 100).' }),
    errors: Type.Array(JobError, { description: 'The first 100 failures; a failed job says why here, with id null.' }),
    created_by: Type.String(),
    created_at: Timestamp,
    started_at: Type.Union([Timestamp, Type.Null()]),
    finished_at: Type.Union([Timestamp, Type.Null()]),
  },
  { additionalProperties: false },
);
export type Job = Static<typeof Job>;
export type JobError = Static<typeof JobError>;

export const JobListQuery = Type.Object(
  {
    limit: Type.Optional(PagingQuery.limit),
    offset: Type.Optional(PagingQuery.offset),
    cursor: Type.Optional(Type.String({ minLength: 1, description: 'pagination.next_cursor of the previous page (not with offset).' })),
  },
  { additionalProperties: false },
);
export type JobListQuery = Static<typeof JobListQuery>;

/** A page of jobs: paged by offset or by cursor, as content lists are (`offset` null on a cursor's page). */
export const JobPagination = ContentPagination;
export interface JobPage {
  data: Job[];
  pagination: ContentPagination;
}
