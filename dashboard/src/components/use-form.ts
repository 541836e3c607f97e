// A form's values and its submission in one object: inputs bind to a value by name, and the
// submission is an action (busy, outcome, the API's field errors shown beside the inputs).
import { useState } from 'preact/hooks';
import { useAction, type Action, type ActionOptions } from './use-action.js';

export interface Binding<T> {
  name: string;
  value: T;
  onValue: (value: T) => void;
}

export interface FormState<V> extends Action {
  values: V;
  set<K extends keyof V>(key: K, value: V[K]): void;
  /** value, onValue and name (which is also the API's field name whose errors the input shows) for an input. */
  bind<K extends keyof V & string>(key: K): Binding<V[K]>;
  /** Back to the initial values: all, or only the keys named. */
  reset(...keys: (keyof V)[]): void;
}

export function useForm<V extends object>(initial: V, options: ActionOptions = {}): FormState<V> {
  const [values, setValues] = useState<V>(initial);
  const action = useAction(options);
  const set = <K extends keyof V>(key: K, value: V[K]) => setValues((old) => ({ ...old, [key]: value }));
  return {
    ...action,
    values,
    set,
    bind: (key) => ({ name: key, value: values[key], onValue: (value) => set(key, value) }),
    reset: (...keys) => setValues((old) => (keys.length === 0 ? initial : { ...old, ...Object.fromEntries(keys.map((k) => [k, initial[k]])) })),
  };
}
