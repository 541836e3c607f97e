// The dashboard's button: a kind (primary, secondary, danger, link) and a busy state.
import type { ComponentChildren } from 'preact';

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
