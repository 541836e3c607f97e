// Confirm before acting: which row the question is about, and the answer run as an action, so every
// section's "Revoke…?", "Delete…?" works alike (busy on the button, the dialog closed, the outcome said).
import { useState } from 'preact/hooks';
import type { Action } from './use-action.js';

export interface Confirmation<T> {
  /** The row asked about while the dialog is open, else null. */
  subject: T | null;
  ask(subject: T): void;
  /** Spread onto <Confirm>. */
  dialog: { onAnswer: (yes: boolean) => void; busy: boolean };
}

/** work runs as `what` on `action` after a yes; its sentence is the confirmation. The dialog closes either way. */
export function useConfirm<T>(action: Action, what: string, work: (subject: T) => Promise<string | void>): Confirmation<T> {
  const [subject, setSubject] = useState<T | null>(null);
  const onAnswer = async (yes: boolean) => {
    const asked = subject;
    if (yes && asked !== null) {
      await action.run(what, async () => {
        const said = await work(asked);
        // Closed in the same render as the result, so what it shows (a secret, say) is not behind the modal.
        setSubject(null);
        return said;
      });
    }
    setSubject(null);
  };
  return { subject, ask: (row) => setSubject(() => row), dialog: { onAnswer: (yes) => void onAnswer(yes), busy: action.busy === what } };
}
