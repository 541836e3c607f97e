// The "sender" of scheduled publishing for the outbox worker: a transition is not sent anywhere, it
// is one transaction on the store (domain/publishing/scheduler.ts), so shutdown lets it finish
// rather than cancel it half-way (a transaction is all or nothing anyway).
import type { DueTransition, Scheduler, TransitionResult } from '../domain/publishing/scheduler.js';
import type { OutboxSender } from './outbox-worker.js';

export class TransitionSender implements OutboxSender<DueTransition, TransitionResult> {
  constructor(private readonly scheduler: Scheduler) {}

  send(item: DueTransition): Promise<TransitionResult> {
    return this.scheduler.perform(item);
  }

  close(): void {}
}
