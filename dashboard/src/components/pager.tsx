// Previous / Next through a paged list, with where the reader is ("21–40 of 57").
import { Button } from './button.js';

export function Pager(props: { total: number; offset: number; size: number; onOffset: (offset: number) => void; what: string }) {
  const last = Math.min(props.offset + props.size, props.total);
  return (
    <nav class="pager" aria-label={`Pages of ${props.what}`}>
      <Button onClick={() => props.onOffset(Math.max(0, props.offset - props.size))} disabled={props.offset === 0}>
        Previous
      </Button>
      <span role="status">
        {props.total === 0 ? 'None' : `${props.offset + 1}–${last} of ${props.total}`}
      </span>
      <Button onClick={() => props.onOffset(props.offset + props.size)} disabled={last >= props.total}>
        Next
      </Button>
    </nav>
  );
}
