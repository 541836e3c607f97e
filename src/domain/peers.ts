// The other server processes of this host (WORKERS > 1, node:cluster): a change made here that
// others cache (a revoked key, a deleted user, an ended session) is told to them at once, so that
// it takes effect on every process now rather than within the one-second cache. Only wake-ups and
// invalidations travel this way; the store stays the source of truth.
export interface PeerRelay {
  /** Tells every other process (never this one) about `data` under `topic`. */
  publish(topic: string, data: string): void;
  /** Hears what the other processes publish under `topic`. */
  subscribe(topic: string, handler: (data: string) => void): void;
}
