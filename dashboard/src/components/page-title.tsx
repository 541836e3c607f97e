// A section's heading, focused on arrival.
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

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
