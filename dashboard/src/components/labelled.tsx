// The frame of every input: its label, a hint, the control, and its error beside it. Custom inputs
// (an image picker, a per-type field) render their control inside it and get the same wiring.
import type { ComponentChildren } from 'preact';
import { useFieldError } from './form.js';
import { useId } from './use-id.js';

/** Spread onto the control: its id (the label's for) and what describes it. */
export interface ControlProps {
  id: string;
  'aria-describedby'?: string;
  'aria-invalid'?: true;
}

export function Labelled(props: { label: string; hint?: string; error?: string; name?: string; children: (control: ControlProps) => ComponentChildren }) {
  const id = useId('field');
  const fromForm = useFieldError(props.name);
  const error = props.error ?? fromForm;
  const described = [props.hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      {props.hint && (
        <p class="hint" id={`${id}-hint`}>
          {props.hint}
        </p>
      )}
      {props.children({ id, 'aria-describedby': described, 'aria-invalid': error ? true : undefined })}
      {error && (
        <p class="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}
