// A confirmation dialog (native <dialog>: focus is trapped and Escape cancels).
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { Button } from './button.js';
import { useId } from './use-id.js';

/** A modal question; resolves through onAnswer. Focus goes to Cancel first (the safe choice). */
export function Confirm(props: { title: string; children: ComponentChildren; confirmText: string; onAnswer: (yes: boolean) => void; busy?: boolean }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId('dialog');
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);
  return (
    <dialog ref={ref} aria-labelledby={titleId} onCancel={(e) => (e.preventDefault(), props.onAnswer(false))}>
      <h2 id={titleId}>{props.title}</h2>
      <div>{props.children}</div>
      <div class="actions">
        <Button onClick={() => props.onAnswer(false)} disabled={props.busy}>
          Cancel
        </Button>
        <Button kind="danger" onClick={() => props.onAnswer(true)} busy={props.busy} busyText="Working…">
          {props.confirmText}
        </Button>
      </div>
    </dialog>
  );
}
