// Baseline for the benchmark: bare Fastify over HTTPS (product's cert) serving the list JSON from memory.
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};

const body: unknown = JSON.parse(readFileSync(env('BARE_BODY_FILE'), 'utf8'));
const app = Fastify({
  logger: false,
  https: { cert: readFileSync(env('BARE_CERT_FILE'), 'utf8'), key: readFileSync(env('BARE_KEY_FILE'), 'utf8') },
});

// Serialised per request (JSON.stringify), as a handler returning an object would be.
app.get('/v1/content', async (_request, reply) => {
  reply.header('content-type', 'application/json; charset=utf-8');
  return body;
});

await app.listen({ host: '127.0.0.1', port: Number(env('PORT')) });
const stop = () => void app.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
