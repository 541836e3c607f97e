// A connection handed to a worker that dies before taking it must end, not hang (issue 21, P3-6).
// node:cluster's round-robin scheduling (Node 20, lib/internal/cluster/round_robin_handle.js):
// the primary accepts a connection, sends its handle to a worker over IPC, and closes its own copy
// only when the worker acknowledges. A worker killed in between (SIGKILL, a crash) never does: the
// callback waiting for the acknowledgement is never called, and the primary keeps the connection
// open for ever — the client has sent its request and hears nothing until its own timeout. Here the
// primary notes every handle it sends with a `newconn` and forgets it on the acknowledgement; when
// the worker exits, it closes whatever was never acknowledged, so the client sees the connection
// reset (or closed) at once and can retry.
import type { ChildProcess } from 'node:child_process';
import type { Worker } from 'node:cluster';

interface ClusterMessage {
  cmd?: unknown;
  act?: unknown;
  seq?: unknown;
  ack?: unknown;
}

interface Handle {
  close(): void;
}

const clusterMessage = (message: unknown): ClusterMessage | undefined =>
  typeof message === 'object' && message !== null && (message as ClusterMessage).cmd === 'NODE_CLUSTER' ? (message as ClusterMessage) : undefined;

export function closeUnacknowledgedHandoffs(worker: Worker): void {
  const child: ChildProcess = worker.process;
  const inFlight = new Map<number, Handle>();
  const send = child.send.bind(child) as (...args: unknown[]) => boolean;
  child.send = ((message: unknown, handle?: unknown, ...rest: unknown[]) => {
    const m = clusterMessage(message);
    if (m?.act === 'newconn' && typeof m.seq === 'number' && handle) inFlight.set(m.seq, handle as Handle);
    return send(message, handle, ...rest);
  }) as typeof child.send;
  // node:cluster's own listener (added at fork, so it runs first) closes or re-sends the handle.
  child.on('internalMessage', (message: unknown) => {
    const m = clusterMessage(message);
    if (typeof m?.ack === 'number') inFlight.delete(m.ack);
  });
  worker.once('exit', () => {
    for (const handle of inFlight.values()) handle.close();
    inFlight.clear();
  });
}
