// A variant is made once across instances: two app instances on one store and one media
// directory, asked for the same variant at the same moment, make it once between them
// (cms_media_variants_made_total summed over both) and answer the same bytes.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createApp, type App } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { Client } from './helpers/client.js';
import { startServer, type TestAccount, type TestServer } from './helpers/server.js';
import { testStores } from './helpers/stores.js';
import { jpeg, multipart } from './helpers/multipart.js';

for (const store of testStores()) {
  describe(`media variants once across instances (${store})`, () => {
    let server: TestServer;
    let second: App;
    let secondClient: Client;
    let owner: TestAccount;
    before(async () => {
      server = await startServer(store);
      owner = await server.account();
      const env: Record<string, string> = { HOST: '127.0.0.1', PORT: '0', DATA_DIR: server.dataDir, LOG_LEVEL: 'silent', ...(server.databaseUrl ? { DATABASE_URL: server.databaseUrl } : {}) };
      second = await createApp(loadConfig(env));
      const port = (await second.listen()).address.port;
      secondClient = new Client(`https://127.0.0.1:${port}`, await fs.readFile(path.join(server.dataDir, 'tls-cert.pem'), 'utf8'));
    });
    after(async () => {
      secondClient.close();
      await second.shutdown();
      await server.close();
    });

    it('makes a variant asked for on both instances at once exactly once', async () => {
      const { body, headers } = multipart([{ name: 'file', value: await jpeg(2000, 1500), filename: 'big.jpg' }]);
      const id = (await server.client.post('/v1/media', { key: owner.key, raw: body, headers })).body.data.id as string;
      const made = async (client: Client) => Number(/cms_media_variants_made_total (\d+)/.exec((await client.get('/metrics')).text)?.[1]);
      const before = (await made(server.client)) + (await made(secondClient));
      const url = `/v1/media/${id}/file?w=400&format=webp`;
      const answers = await Promise.all([0, 1, 2, 3].map((i) => (i % 2 ? secondClient : server.client).get(url, { key: owner.key })));
      for (const answer of answers) {
        assert.equal(answer.status, 200);
        assert.equal(answer.text, answers[0]!.text);
      }
      assert.equal((await made(server.client)) + (await made(secondClient)) - before, 1);
    });
  });
}
