// Content revision schemas (CONTRACT.md §17): the list item, the full revision, the list's paging.
import Type, { type Static } from 'typebox';
import { PagingQuery, StringEnum, Timestamp } from './common.js';
import { CONTENT_STATUSES, CONTENT_TYPES } from './content.js';

export const RevisionListItem = Type.Object(
  {
    version: Type.Integer({ minimum: 1, description: 'The item version this revision is.' }),
    title: Type.String(),
    type: StringEnum(CONTENT_TYPES),
    status: StringEnum(CONTENT_STATUSES),
    changed_by: Type.Union([Type.String(), Type.Null()], {
      description: 'Id of the user who made this version; null for versions made before revisions were kept (other than the first).',
    }),
    created_at: Timestamp,
  },
  { additionalProperties: false },
);

export const Revision = Type.Object(
  {
    ...RevisionListItem.properties,
    content: Type.String({ description: 'The body at this version.' }),
    fields: Type.Object({}, { additionalProperties: true, description: "The item's typed fields at this version, fields since removed from the model included." }),
  },
  { additionalProperties: false },
);

export const RevisionListQuery = Type.Object(
  { limit: Type.Optional(PagingQuery.limit), offset: Type.Optional(PagingQuery.offset) },
  { additionalProperties: false },
);

export type RevisionListItem = Static<typeof RevisionListItem>;
export type Revision = Static<typeof Revision>;
export type RevisionListQuery = Static<typeof RevisionListQuery>;
