// A form bound to a useForm(): submits through its action, shows its outcome, and hands the API's
// field errors to the inputs inside it (any input, custom ones too, through useFieldError).
import { createContext, type ComponentChildren } from 'preact';
import { useContext } from 'preact/hooks';
import { Button } from './button.js';
import { Message } from './message.js';
import { useId } from './use-id.js';
import type { Action } from './use-action.js';
import type { FormState } from './use-form.js';

/** What the inputs and the submit button inside need of the form. */
const FormContext = createContext<Action | null>(null);

export function Form<V extends object>(props: {
  form: FormState<V>;
  /** Runs as the action "submit" with the current values; a returned sentence is shown as the confirmation. */
  onSubmit: (values: V) => Promise<string | void> | string | void;
  /** An <h2> that names the form. */
  title?: string;
  /** Default "card"; "" for none. */
  class?: string;
  /** false: the outcome is shown elsewhere (the caller renders a Message, or the form reports to its section). */
  message?: boolean;
  children: ComponentChildren;
}) {
  const { form } = props;
  const titleId = useId('form');
  const submit = (event: Event) => {
    event.preventDefault();
    void form.run('submit', () => props.onSubmit(form.values));
  };
  return (
    <form class={props.class === undefined ? 'card' : props.class || undefined} onSubmit={submit} aria-labelledby={props.title ? titleId : undefined} noValidate>
      <FormContext.Provider value={form}>
        {props.title && <h2 id={titleId}>{props.title}</h2>}
        {props.message !== false && <Message error={form.outcome.error} success={form.outcome.success} />}
        {props.children}
      </FormContext.Provider>
    </form>
  );
}

/** The form's submit button: "busyText" while the form submits. */
export function Submit(props: { children: ComponentChildren; busyText: string }) {
  const form = useContext(FormContext);
  return (
    <Button kind="primary" type="submit" busy={form?.busy === 'submit'} busyText={props.busyText}>
      {props.children}
    </Button>
  );
}

/** The error the API (or a check before sending) gave for the field `name` of the enclosing form: `scopes[1]` belongs to `scopes`. */
export function useFieldError(name: string | undefined): string | undefined {
  const form = useContext(FormContext);
  if (!name || !form) return undefined;
  return form.fieldErrors.find((e) => e.field === name || e.field.startsWith(`${name}[`) || e.field.startsWith(`${name}.`))?.message;
}
