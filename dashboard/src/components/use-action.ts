// One way to run an API call from a button, a dialog or a form: what is busy, the outcome in words
// (an error for role="alert", a confirmation for role="status") and the API's field errors (422).
import { useState } from 'preact/hooks';
import { ApiError, describeError, type FieldError } from '../api.js';

export interface Outcome {
  error?: string | null;
  success?: string | null;
}

/** A problem found before calling the API. With a field it is shown beside that input only. */
export class Invalid extends Error {
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

export interface ActionOptions {
  /** Show outcomes elsewhere (the section's message, for a card or a form inside it) instead of keeping them here. */
  report?: (outcome: Outcome) => void;
  /** Words for an API error whose own message says too little here (a 412, a 409); undefined keeps the API's message. */
  explain?: (error: ApiError) => string | undefined;
  /** The outcome shown at first (a confirmation carried over from the previous page); a function is called once. */
  initial?: Outcome | (() => Outcome);
}

export interface Action {
  /** The name given to the running run(), or null. */
  busy: string | null;
  outcome: Outcome;
  /** The field errors of the last failure: the API's errors[] of a 422, or an Invalid with a field. */
  fieldErrors: FieldError[];
  /**
   * Runs work as `what`: busy meanwhile, the last outcome cleared, then the sentence work returns shown as a
   * confirmation, or its error in words. Resolves to whether it succeeded; never rejects.
   */
  run(what: string, work: () => Promise<string | void> | string | void): Promise<boolean>;
  /** Shows an outcome that did not come from run (a child's result, a notice). */
  say(outcome: Outcome): void;
}

export function useAction(options: ActionOptions = {}): Action {
  const [busy, setBusy] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Outcome>(options.initial ?? {});
  const [fieldErrors, setFieldErrors] = useState<FieldError[]>([]);
  const say = options.report ?? setOutcome;

  const run = async (what: string, work: () => Promise<string | void> | string | void) => {
    setBusy(what);
    say({});
    setFieldErrors([]);
    try {
      const success = await work();
      if (success) say({ success });
      return true;
    } catch (e) {
      if (e instanceof Invalid && e.field) {
        setFieldErrors([{ field: e.field, code: 'invalid_value', message: e.message }]);
      } else {
        if (e instanceof ApiError) setFieldErrors(e.errors);
        say({ error: (e instanceof ApiError && options.explain?.(e)) || describeError(e) });
      }
      return false;
    } finally {
      setBusy(null);
    }
  };

  return { busy, outcome, fieldErrors, run, say };
}
