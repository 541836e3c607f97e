// POST /v1/content/batch (CONTRACT.md §21, docs/bulk.md): a thin handler over ContentBatch. The
// batch counts as its operations toward the hourly limit and the quota (rate-limit.ts), and its
// answer is made from the transaction's result, so a keyed batch's response commits with it.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import Type from 'typebox';
import type { BatchOperation, BatchOutcome, ContentBatch } from '../../domain/content/content-batch.js';
import type { RateLimiter } from '../../domain/limits/rate-limiter.js';
import { One } from '../../domain/schemas/common.js';
import { BatchResult, ContentBatchBody, type BatchOperationBody } from '../../domain/schemas/content-batch.js';
import { toHttpError } from '../errors.js';
import { parseIfMatch } from '../preconditions.js';
import { chargeOperations } from '../rate-limit.js';
import { errorResponses, needs } from '../schemas.js';
import { tags } from './content-params.js';

const STATUS = { create: 201, update: 200, publish: 200, archive: 200, delete: 204 } as const;

function resultOf(outcome: BatchOutcome): BatchResult {
  if (outcome.ok) return { status: STATUS[outcome.op], data: outcome.item };
  const { status, code, message, errors } = toHttpError(outcome.error);
  return { status, error: { message, code, ...(errors ? { errors } : {}) } };
}

const answer = (outcomes: BatchOutcome[]) => ({ status: 200, headers: {}, body: { data: outcomes.map(resultOf) } });

function operationOf(body: BatchOperationBody): BatchOperation {
  if (body.op === 'create') return body;
  return { ...body, precondition: parseIfMatch(body.if_match) };
}

/** Per request: where to say which operations succeeded (each spends its unit of quota). */
const charges = new WeakMap<FastifyRequest, (succeeded: boolean[]) => void>();

export function contentBatchRoutes(batch: ContentBatch, limiter: RateLimiter | undefined): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post('/content/batch', {
      config: { responseOf: answer },
      schema: {
        operationId: 'batchContent',
        summary: 'Make up to 100 content changes in one request',
        description:
          'Operations run in order. atomic (default): one transaction, all or nothing; a failure answers 422 naming operations[i].… ' +
          '(a stale if_match: operations[i].if_match, precondition_failed), or 403/404/409 as that operation alone would, and nothing changes. ' +
          'atomic=false: every operation stands alone and data holds one result per operation, its status the one it alone would have had. ' +
          'An atomic batch may name each item once. The batch counts as its operations toward the hourly limit and the quota.',
        tags, ...needs('content:write'),
        body: ContentBatchBody,
        response: {
          200: One(Type.Array(BatchResult, { description: 'One result per operation, in the order given.' })),
          ...errorResponses(400, 403, 404, 409, 413, 415, 422),
        },
      },
      preHandler: async (request, reply) => {
        // Validated, so the number of operations is known: the batch counts as that many requests.
        if (limiter) charges.set(request, await chargeOperations(request, reply, limiter, request.body.operations.length));
      },
    }, async (request, reply) => {
      const operations = request.body.operations.map(operationOf);
      const principal = request.principal!;
      const outcomes = await (request.body.atomic === false ? batch.independent(principal, operations) : batch.atomic(principal, operations));
      charges.get(request)?.(outcomes.map((o) => o.ok));
      return reply.code(200).send(answer(outcomes).body);
    });
  };
}
