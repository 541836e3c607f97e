// Whether the store answers, as the storage layer sees it: a failure that means "cannot serve now"
// (StoreUnavailable: a connection lost or refused, a database shutting down or missing, SQLite busy
// or failing I/O) marks it down, the next success marks it up. Each change is reported once, so an
// outage is logged once however many requests it fails.

export type StoreStateListener = (state: 'down' | 'up', error?: unknown) => void;

export class StoreHealth {
  private down = false;

  constructor(private readonly onState: StoreStateListener = () => {}) {}

  failed(error: unknown): void {
    if (this.down) return;
    this.down = true;
    this.onState('down', error);
  }

  succeeded(): void {
    if (!this.down) return;
    this.down = false;
    this.onState('up');
  }
}
