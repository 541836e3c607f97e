// A labelled drop-down list with an optional hint and error.
import { Labelled } from './labelled.js';

export function Select(props: { label: string; value: string; onValue: (value: string) => void; options: [string, string][]; hint?: string; error?: string; disabled?: boolean; name?: string }) {
  return (
    <Labelled label={props.label} hint={props.hint} error={props.error} name={props.name}>
      {(control) => (
        <select {...control} name={props.name} value={props.value} disabled={props.disabled} onChange={(e) => props.onValue((e.currentTarget as HTMLSelectElement).value)}>
          {props.options.map(([value, text]) => (
            <option key={value} value={value}>
              {text}
            </option>
          ))}
        </select>
      )}
    </Labelled>
  );
}
