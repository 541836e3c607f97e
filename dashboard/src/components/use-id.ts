// Ids that tie a label, hint and error to their control (aria-describedby), unique per page.
import { useRef } from 'preact/hooks';

let fieldCounter = 0;
export function useId(prefix: string): string {
  const ref = useRef<string | undefined>(undefined);
  ref.current ??= `${prefix}-${++fieldCounter}`;
  return ref.current;
}
