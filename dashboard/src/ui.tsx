// Shared pieces: labelled fields, buttons with a busy state, messages announced to screen readers,
// a confirmation dialog (native <dialog>: focus is trapped and Escape cancels), and formatting.
import type { ComponentChildren, LooseInputHTMLAttributes } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { describeError as describe } from './api.js';
import { linkHandler } from './router.js';

let fieldCounter = 0;
export function useId(prefix: string): string {
  const ref = useRef<string | undefined>(undefined);
  ref.current ??= `${prefix}-${++fieldCounter}`;
  return ref.current;
}

export function Link(props: { href: string; children: ComponentChildren; class?: string; current?: boolean }) {
  return (
    <a href={props.href} class={props.class} aria-current={props.current ? 'page' : undefined} onClick={linkHandler}>
      {props.children}
    </a>
  );
}

type InputProps = Omit<LooseInputHTMLAttributes<HTMLInputElement>, 'label'> & { label: string; hint?: string; error?: string };

/** A text input with its label, an optional hint and error, wired with aria-describedby. */
export function Field({ label, hint, error, ...input }: InputProps) {
  const id = useId('field');
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {hint && (
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      <input id={id} aria-describedby={described} aria-invalid={error ? true : undefined} {...(input as Record<string, unknown>)} />
      {error && (
        <p class="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

export function Select(props: { label: string; value: string; onChange: (value: string) => void; options: [string, string][]; hint?: string; disabled?: boolean; name?: string }) {
  const id = useId('select');
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      {props.hint && (
        <p class="hint" id={`${id}-hint`}>
          {props.hint}
        </p>
      )}
      <select
        id={id}
        name={props.name}
        value={props.value}
        disabled={props.disabled}
        aria-describedby={props.hint ? `${id}-hint` : undefined}
        onChange={(e) => props.onChange((e.currentTarget as HTMLSelectElement).value)}
      >
        {props.options.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}

export function Checkboxes(props: { legend: string; options: [string, string][]; selected: string[]; onChange: (selected: string[]) => void; hint?: string }) {
  const toggle = (value: string, on: boolean) => props.onChange(on ? [...props.selected, value] : props.selected.filter((v) => v !== value));
  return (
    <fieldset class="checkboxes">
      <legend>{props.legend}</legend>
      {props.hint && <p class="hint">{props.hint}</p>}
      {props.options.map(([value, text]) => (
        <label key={value} class="check">
          <input type="checkbox" value={value} checked={props.selected.includes(value)} onChange={(e) => toggle(value, (e.currentTarget as HTMLInputElement).checked)} />
          {text}
        </label>
      ))}
    </fieldset>
  );
}

/** A button that shows it is working and cannot be pressed twice meanwhile. */
export function Button(props: { children: ComponentChildren; busy?: boolean; busyText?: string; kind?: 'primary' | 'secondary' | 'danger' | 'link'; type?: 'button' | 'submit'; onClick?: () => void; disabled?: boolean; label?: string }) {
  return (
    <button
      type={props.type ?? 'button'}
      class={`button ${props.kind ?? 'secondary'}`}
      onClick={props.onClick}
      disabled={props.disabled || props.busy}
      aria-busy={props.busy ? true : undefined}
      aria-label={props.label}
    >
      {props.busy ? (props.busyText ?? 'Working…') : props.children}
    </button>
  );
}

/** An error (announced at once) or a confirmation (announced politely). */
export function Message(props: { error?: string | null; success?: string | null }) {
  return (
    <>
      <div role="alert" class={props.error ? 'message error' : 'visually-hidden'}>
        {props.error ?? ''}
      </div>
      <div role="status" class={props.success ? 'message success' : 'visually-hidden'}>
        {props.success ?? ''}
      </div>
    </>
  );
}

export function Loading(props: { what?: string }) {
  return (
    <p class="loading" role="status">
      <span class="spinner" aria-hidden="true" />
      Loading {props.what ?? ''}…
    </p>
  );
}

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

/** A secret shown once, with a copy button and the warning to store it. */
export function ShownOnce(props: { title: string; value: string; what: string; onDone: () => void }) {
  const [copied, setCopied] = useState<string | null>(null);
  const ref = useRef<HTMLDivElement>(null);
  const id = useId('secret');
  useEffect(() => ref.current?.focus(), []);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.value);
      setCopied(`Copied the ${props.what} to the clipboard.`);
    } catch {
      setCopied(`Copying was refused by the browser: select the ${props.what} and copy it by hand.`);
    }
  };
  return (
    <div class="shown-once" tabIndex={-1} ref={ref} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{props.title}</h2>
      <p class="warning">
        <strong>Store it safely now.</strong> This is the only time the {props.what} is shown: it cannot be displayed again. If you lose it, generate a new one.
      </p>
      <label for={id}>Your {props.what}</label>
      <div class="copy-row">
        <input id={id} class="secret" readOnly value={props.value} onFocus={(e) => (e.currentTarget as HTMLInputElement).select()} />
        <Button kind="primary" onClick={copy}>
          Copy
        </Button>
      </div>
      <p role="status" class="hint">
        {copied ?? ''}
      </p>
      <Button onClick={props.onDone}>I have stored it</Button>
    </div>
  );
}

export function formatDate(value: string | null | undefined, empty = '—'): string {
  if (!value) return empty;
  const date = new Date(value);
  return date.toLocaleString(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
}

/** A section's heading, focused on arrival so screen readers announce the new page. */
export function PageTitle(props: { children: ComponentChildren }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <h1 tabIndex={-1} ref={ref}>
      {props.children}
    </h1>
  );
}

/** Loads data for a section: value, error, loading, and reload(). */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[] = []): { value: T | undefined; error: string | null; loading: boolean; reload: () => Promise<void> } {
  const [value, setValue] = useState<T | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const run = async () => {
    setLoading(true);
    try {
      setValue(await load());
      setError(null);
    } catch (e) {
      setError(describe(e));
    } finally {
      setLoading(false);
    }
  };
  useEffect(() => {
    void run();
  }, deps);
  return { value, error, loading, reload: run };
}
