// What a server process (a cluster worker) and the coordinator (the cluster primary, or the test
// harness's hub in one process) say to each other. Plain JSON: it crosses the IPC channel.
import type { RateOp } from '../storage/coordinated-rate-store.js';

/** Worker → coordinator. */
export type WorkerMessage =
  /** Relay to every other worker. */
  | { cms: 'publish'; topic: string; data: string }
  /** One step on the shared rate-limit counters; answered with a reply. */
  | { cms: 'rate'; id: number; op: RateOp; args: unknown[] }
  /** The metrics of every worker, aggregated; answered with a reply holding the text. */
  | { cms: 'metrics'; id: number }
  /** This worker serves requests and answers collections from now on. */
  | { cms: 'serving' }
  /** This worker's metrics (prom-client's getMetricsAsJSON), for collection `id`. */
  | { cms: 'collected'; id: number; metrics: unknown };

/** Coordinator → worker. */
export type HubMessage =
  | { cms: 'publish'; topic: string; data: string }
  | { cms: 'reply'; id: number; ok: boolean; value?: unknown; error?: string }
  | { cms: 'collect'; id: number };

function tagged(message: unknown): message is { cms: string } {
  return typeof message === 'object' && message !== null && typeof (message as { cms?: unknown }).cms === 'string';
}

export const isWorkerMessage = (message: unknown): message is WorkerMessage => tagged(message);
export const isHubMessage = (message: unknown): message is HubMessage => tagged(message);
