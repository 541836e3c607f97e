// A secret (API key, client secret, signing secret) shown once, with a copy button.
import { useEffect, useRef, useState } from 'preact/hooks';
import { Button } from './button.js';
import { useId } from './use-id.js';

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
