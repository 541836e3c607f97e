// A labelled text input with an optional hint and error.
import type { LooseInputHTMLAttributes } from 'preact';
import { Labelled } from './labelled.js';

type InputProps = Omit<LooseInputHTMLAttributes<HTMLInputElement>, 'label' | 'value' | 'name'> & {
  label: string;
  hint?: string;
  error?: string;
  name?: string;
  value?: string;
  onValue?: (value: string) => void;
};

/** A text input with its label, an optional hint and error (given, or the form's for `name`), wired with aria-describedby. */
export function Field({ label, hint, error, onValue, ...input }: InputProps) {
  return (
    <Labelled label={label} hint={hint} error={error} name={input.name}>
      {(control) => <input {...control} {...(input as Record<string, unknown>)} {...(onValue ? { onInput: (e: Event) => onValue((e.currentTarget as HTMLInputElement).value) } : {})} />}
    </Labelled>
  );
}
