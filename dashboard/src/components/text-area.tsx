// A labelled multi-line text input with an optional hint and error.
import { Labelled } from './labelled.js';

export function TextArea(props: { label: string; value: string; onValue: (value: string) => void; rows: number; hint?: string; error?: string; name?: string }) {
  return (
    <Labelled label={props.label} hint={props.hint} error={props.error} name={props.name}>
      {(control) => <textarea {...control} name={props.name} rows={props.rows} value={props.value} onInput={(e) => props.onValue((e.currentTarget as HTMLTextAreaElement).value)} />}
    </Labelled>
  );
}
