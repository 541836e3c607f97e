// Bulk jobs (CONTRACT.md §21, docs/bulk.md): POST /v1/content/bulk starts one; /v1/jobs reads and
// cancels them. Thin handlers over BulkJobs.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import type { BulkJobs } from '../../domain/jobs/bulk-jobs.js';
import { One, Page } from '../../domain/schemas/common.js';
import { BulkBody, Job, JobListQuery, JobPagination } from '../../domain/schemas/jobs.js';
import { errorResponses, needs, queuesAt } from '../schemas.js';

const tags = ['Jobs'];
const IdParams = Type.Object({ id: Type.String({ description: 'The job id.' }) });
const queued = (job: Job) => ({ status: 202, headers: { location: `/v1/jobs/${job.id}` }, body: { data: job } });

export function jobRoutes(jobs: BulkJobs): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post('/content/bulk', {
      config: { responseOf: queued },
      schema: {
        operationId: 'bulkContent', summary: 'Publish, archive or delete every item a filter matches, as a job',
        description:
          'Answers 202 with the job (status queued, total = the items matching now; a filter matching nothing gives a job that has ' +
          'already succeeded with total 0). The job runs in chunks, acting with its creator\'s rights at each; follow it at Location. Editors and above.',
        tags: ['Content', ...tags], ...needs('content:write'), ...queuesAt(),
        body: BulkBody,
        response: { 202: One(Job), ...errorResponses(403, 413, 415, 422) },
      },
    }, async (request, reply) => {
      const answer = queued(await jobs.create(request.principal!, request.body));
      return reply.code(202).headers(answer.headers).send(answer.body);
    });

    app.get('/jobs', {
      schema: {
        operationId: 'listJobs', summary: "The account's bulk jobs, newest first", tags, ...needs('content:read'),
        querystring: JobListQuery,
        response: { 200: Page(Job, JobPagination), ...errorResponses(400, 403) },
      },
    }, async (request) => jobs.list(request.principal!, request.query));

    app.get('/jobs/:id', {
      schema: {
        operationId: 'getJob', summary: 'One bulk job and its progress', tags, ...needs('content:read'),
        params: IdParams,
        response: { 200: One(Job), ...errorResponses(403, 404) },
      },
    }, async (request) => ({ data: await jobs.get(request.principal!, request.params.id) }));

    app.delete('/jobs/:id', {
      schema: {
        operationId: 'cancelJob', summary: 'Cancel a queued or running job (what was done stays done)',
        description: 'Answers 200 with the cancelled job; a job that has finished is 409.', tags, ...needs('content:write'),
        params: IdParams,
        response: { 200: One(Job), ...errorResponses(403, 404, 409) },
      },
    }, async (request) => ({ data: await jobs.cancel(request.principal!, request.params.id) }));
  };
}
