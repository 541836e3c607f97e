// WAL checkpoints on a thread of their own. SQLite copies the WAL's pages back into the database
// file (a checkpoint, with an fsync of that file) when a commit takes the WAL past
// `wal_autocheckpoint` pages, inside that COMMIT: better-sqlite3 runs it on the event loop, so
// every request waits for it. Here the writing connection's own checkpoint is only a safety net
// (SAFETY_NET_PAGES), and a worker thread with a connection of its own runs PASSIVE checkpoints a
// moment after commits. A PASSIVE checkpoint waits for no reader or writer, and copies only what
// every reader has moved past, so nothing a reader sees changes; an acknowledged write is durable
// as before: its COMMIT fsyncs the WAL (synchronous=FULL), and a checkpoint fsyncs the database file
// before SQLite reuses the WAL. Measured: the import of 10,000 files (docs/bulk.md).
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** The writing connection's own checkpoint threshold: reached only if the thread falls behind or fails. */
export const SAFETY_NET_PAGES = 10_000;
/** How long after a commit the thread checkpoints: the commits of a busy moment share one checkpoint. */
const DELAY_MS = 100;

// The thread's code. CommonJS (an eval worker), given the driver's resolved path, so that it loads
// the same better-sqlite3 wherever the server was started from.
const THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const SQLite = require(workerData.driver);
const db = new SQLite(workerData.file);
db.pragma('synchronous = FULL');
db.pragma('busy_timeout = 5000');
parentPort.on('message', (message) => {
  if (message === 'close') {
    db.close();
    parentPort.close();
    return;
  }
  try {
    const [result] = db.pragma('wal_checkpoint(PASSIVE)');
    parentPort.postMessage({ ok: true, result });
  } catch (error) {
    parentPort.postMessage({ ok: false, message: String(error && error.message || error) });
  }
});
`;

export class Checkpointer {
  private thread: Worker | undefined;
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  /** A commit came while a checkpoint ran: another follows it. */
  private again = false;
  private failed = false;

  /**
   * @param file the database file.
   * @param fallback called once, with the reason, if the thread cannot work (the writing connection
   *   then checkpoints at SQLite's usual threshold again).
   */
  constructor(
    private readonly file: string,
    private readonly fallback: (reason: string) => void,
  ) {}

  /** A transaction committed: checkpoint a moment from now. */
  committed(): void {
    if (this.failed) return;
    if (this.running) this.again = true;
    else this.timer ??= setTimeout(() => this.checkpoint(), DELAY_MS).unref();
  }

  private checkpoint(): void {
    this.timer = undefined;
    this.running = true;
    this.again = false;
    try {
      this.start().postMessage('checkpoint');
    } catch (error) {
      // No thread could be made (resources exhausted): the writing connection checkpoints again.
      this.fail(`the thread could not be started: ${messageOf(error)}`);
    }
  }

  private start(): Worker {
    if (this.thread) return this.thread;
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    const thread = new Worker(THREAD, { eval: true, workerData: { file: this.file, driver } });
    // An idle thread keeps no process alive; close() ends it.
    thread.unref();
    thread.on('message', (reply: { ok: boolean; message?: string }) => {
      this.running = false;
      if (!reply.ok) return this.fail(`a checkpoint failed: ${reply.message}`);
      if (this.again) this.committed();
    });
    thread.on('error', (error) => this.fail(`the thread failed: ${messageOf(error)}`));
    // It ends only when asked to (close); ending otherwise is a failure like an error.
    thread.once('exit', (code) => {
      if (this.thread === thread) this.fail(`the thread ended unasked (exit code ${code})`);
    });
    return (this.thread = thread);
  }

  /**
   * The thread cannot work: the writing connection checkpoints at SQLite's usual threshold again,
   * for the rest of the process's life (a checkpoint that failed once would likely fail again).
   */
  private fail(reason: string): void {
    if (this.failed) return;
    this.failed = true;
    this.running = false;
    clearTimeout(this.timer);
    const thread = this.thread;
    this.thread = undefined;
    try {
      this.fallback(reason);
    } finally {
      void thread?.terminate();
    }
  }

  /** Ends the thread (after the checkpoint it may be running), its connection closed. */
  async close(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.failed = true;
    const thread = this.thread;
    this.thread = undefined;
    // A thread that ended by itself was let go by fail() already.
    if (!thread) return;
    const ended = new Promise<void>((resolve) => thread.once('exit', () => resolve()));
    // Held now, so that the process waits for the connection to close.
    thread.ref();
    thread.postMessage('close');
    await ended;
  }
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
