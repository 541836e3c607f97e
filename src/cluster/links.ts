// Transports between workers and the hub: the IPC channel of node:cluster, or (tests running
// several app instances in one process) a direct hand-over that still goes through JSON and the
// event loop, as IPC does.
import type { Worker } from 'node:cluster';
import type { HubLink } from './coordinator.js';
import type { Hub, HubPeer } from './hub.js';
import { isHubMessage, isWorkerMessage, type HubMessage, type WorkerMessage } from './messages.js';

/** A cluster worker's link to the primary. */
export function ipcLink(): HubLink {
  return {
    send(message) {
      // During shutdown the primary may be gone already: what cannot be sent is dropped.
      if (process.connected) process.send!(message, undefined, {}, () => {});
    },
    listen(listener) {
      process.on('message', (message: unknown) => {
        if (isHubMessage(message)) listener(message);
      });
    },
  };
}

/** The primary's side of one worker: joins the hub and feeds it the worker's messages until it exits. */
export function attachWorker(hub: Hub, worker: Worker, slot: number): HubPeer {
  const peer: HubPeer = {
    id: slot,
    send(message) {
      if (worker.isConnected()) worker.send(message, undefined, () => {});
    },
  };
  hub.join(peer);
  worker.on('message', (message: unknown) => {
    if (isWorkerMessage(message)) hub.receive(peer, message);
  });
  worker.once('exit', () => hub.leave(peer));
  return peer;
}

const copy = <T>(message: T): T => JSON.parse(JSON.stringify(message)) as T;

/** A link to a hub in this same process, for app instances started side by side (tests). */
export function inProcessLink(hub: Hub, slot: number): HubLink & { close(): void } {
  let listener: ((message: HubMessage) => void) | undefined;
  let open = true;
  const peer: HubPeer = {
    id: slot,
    send: (message) => void setImmediate(() => open && listener?.(copy(message))),
  };
  hub.join(peer);
  return {
    send: (message: WorkerMessage) => void setImmediate(() => open && hub.receive(peer, copy(message))),
    listen: (l) => (listener = l),
    close() {
      open = false;
      hub.leave(peer);
    },
  };
}
