// A group of checkboxes under a legend, choosing several values; its error below the options.
import { useFieldError } from './form.js';
import { useId } from './use-id.js';

export function Checkboxes(props: { legend: string; options: [string, string][]; value: string[]; onValue: (value: string[]) => void; hint?: string; error?: string; name?: string }) {
  const id = useId('checks');
  const fromForm = useFieldError(props.name);
  const error = props.error ?? fromForm;
  const toggle = (value: string, on: boolean) => props.onValue(on ? [...props.value, value] : props.value.filter((v) => v !== value));
  return (
    <fieldset class="checkboxes" aria-describedby={error ? `${id}-error` : undefined}>
      <legend>{props.legend}</legend>
      {props.hint && <p class="hint">{props.hint}</p>}
      {props.options.map(([value, text]) => (
        <label key={value} class="check">
          <input type="checkbox" name={props.name} value={value} checked={props.value.includes(value)} onChange={(e) => toggle(value, (e.currentTarget as HTMLInputElement).checked)} />
          {text}
        </label>
      ))}
      {error && (
        <p class="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </fieldset>
  );
}
