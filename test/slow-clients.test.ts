// Slow and idle clients cannot hold the service's connections (D4): one address holds at most
// MAX_CONNECTIONS_PER_ADDRESS at once (more are closed at once), and a connection that sends
// nothing, stalls its TLS handshake or trickles its headers is closed after HEADERS_TIMEOUT_SECONDS,
// while normal clients (another address) are served throughout. The loopback network is 127/8, so
// the slow clients come from 127.0.0.2 and the normal ones from 127.0.0.1.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import tls from 'node:tls';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startServer, TEST_WORKERS, type TestAccount, type TestServer } from './helpers/server.js';
import { testStores } from './helpers/stores.js';

const SLOW = '127.0.0.2';
const CAP = 5;

/** Resolves with what the peer sent and when (ms after `since`) the connection closed. */
function outcome(socket: net.Socket, since: number): Promise<{ text: string; afterMs: number }> {
  return new Promise((resolve) => {
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    socket.on('error', () => {});
    socket.once('close', () => resolve({ text, afterMs: Date.now() - since }));
  });
}

function tcpFrom(port: number, localAddress: string): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port, localAddress }, () => resolve(socket));
    socket.once('error', reject);
  });
}

async function tlsFrom(port: number, ca: string, localAddress: string): Promise<tls.TLSSocket> {
  const tcp = await tcpFrom(port, localAddress);
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ socket: tcp, ca, servername: 'localhost' }, () => resolve(socket));
    socket.once('error', reject);
  });
}

for (const store of testStores()) {
  describe(`slow and idle clients (${store})`, () => {
    let server: TestServer;
    let owner: TestAccount;
    let ca: string;
    before(async () => {
      server = await startServer(store, {
        env: { HEADERS_TIMEOUT_SECONDS: '1', MAX_CONNECTIONS_PER_ADDRESS: String(CAP), KEEP_ALIVE_TIMEOUT_SECONDS: '1' },
      });
      owner = await server.account();
      ca = await fs.readFile(path.join(server.dataDir, 'tls-cert.pem'), 'utf8');
    });
    after(() => server.close());

    it('caps one address, closes its slow connections after the header deadline, and serves others meanwhile', async (t) => {
      // The cluster hands workers the client's own socket; the test balancer is a TCP proxy, so every connection comes from 127.0.0.1.
      if (TEST_WORKERS > 1) return t.skip(`TEST_WORKERS=${TEST_WORKERS}: the per-address cap needs client addresses, which the test balancer (a TCP proxy) hides`);
      const started = Date.now();
      // Five slow connections from one address: silent TCP, a stalled handshake, a silent TLS
      // session, and one that trickles header lines forever.
      const silent = [await tcpFrom(server.port, SLOW), await tcpFrom(server.port, SLOW)];
      const stalled = await tcpFrom(server.port, SLOW);
      stalled.write(Buffer.from([0x16, 0x03, 0x01, 0x02, 0x00, 0x01]));
      const quiet = await tlsFrom(server.port, ca, SLOW);
      const trickle = await tlsFrom(server.port, ca, SLOW);
      trickle.write('GET /v1/content HTTP/1.1\r\nHost: x\r\n');
      const dripping = setInterval(() => trickle.writable && trickle.write(`X-Slow-${Date.now()}: 1\r\n`), 200);
      const outcomes = [...silent, stalled, quiet, trickle].map((s) => outcome(s, started));

      // A sixth from the same address is closed at once, before anything is said.
      const refused = await tcpFrom(server.port, SLOW);
      const refusedOutcome = await outcome(refused, Date.now());
      assert.equal(refusedOutcome.text, '');
      assert.ok(refusedOutcome.afterMs < 1000, `the sixth connection stayed ${refusedOutcome.afterMs} ms`);

      // Others are served meanwhile.
      for (let i = 0; i < 5; i++) assert.equal((await server.client.get('/v1/content', { key: owner.key })).status, 200);

      const [silentA, silentB, stalledEnd, quietEnd, trickleEnd] = await Promise.all(outcomes);
      clearInterval(dripping);
      for (const end of [silentA!, silentB!, stalledEnd!]) {
        assert.equal(end.text, '', 'nothing is said before TLS');
        assert.ok(end.afterMs < 4000, `closed after ${end.afterMs} ms`);
      }
      for (const end of [quietEnd!, trickleEnd!]) {
        assert.match(end.text, /^HTTP\/1\.1 408 /);
        assert.match(end.text, /"code":"request_timeout"/);
        assert.ok(end.afterMs < 4000, `closed after ${end.afterMs} ms`);
      }

      // The address has its share back once the server has seen its side of each close (a moment
      // after the client's: a refused attempt is closed before TLS, so it is tried again).
      let served = '';
      for (const deadline = Date.now() + 3000; !served.startsWith('HTTP/1.1 200 ') && Date.now() < deadline; await sleep(50)) {
        const again = await tlsFrom(server.port, ca, SLOW).catch(() => undefined);
        if (!again) continue;
        const answer = outcome(again, Date.now());
        again.write(`GET /v1/content HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${owner.key}\r\nConnection: close\r\n\r\n`);
        served = (await answer).text;
      }
      assert.match(served, /^HTTP\/1\.1 200 /);

      const metrics = await server.client.get('/metrics');
      assert.match(metrics.text, /^cms_connections_refused_total [1-9]/m);
      assert.match(metrics.text, /^cms_connections \d+/m);
    });

    it('closes an idle keep-alive connection after KEEP_ALIVE_TIMEOUT_SECONDS', async () => {
      const socket = await tlsFrom(server.port, ca, '127.0.0.1');
      const end = outcome(socket, Date.now());
      socket.write(`GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n`);
      await sleep(100);
      const { text, afterMs } = await end;
      assert.match(text, /^HTTP\/1\.1 200 /);
      assert.match(text, /Keep-Alive: timeout=1/);
      assert.ok(afterMs >= 900 && afterMs < 5000, `closed after ${afterMs} ms`);
    });
  });
}
