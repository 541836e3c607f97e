// A list the API pages: "Loading …", the error in words, the empty text, then the rows (a table, or
// a layout of the caller's such as cards or a grid) and the pager.
import type { ComponentChildren } from 'preact';
import type { Page } from '../api.js';
import { Loading } from './loading.js';
import { Message } from './message.js';
import { Pager } from './pager.js';
import { Table, type Column, type Selection } from './table.js';
import { useId } from './use-id.js';

export interface ListState<T> {
  value: Page<T> | undefined;
  error: string | null;
  loading: boolean;
}

export interface Paging {
  offset: number;
  size: number;
  onOffset: (offset: number) => void;
}

type Props<T> = {
  /** From useLoad(() => api.page<T>(…)). */
  state: ListState<T>;
  /** What the rows are, in the plural: "Loading keys…", "Pages of keys". */
  what: string;
  /** Shown when there are no rows. */
  empty: string;
  /** An <h2> over the list, and a region named by it. */
  title?: string;
  paging?: Paging;
} & ({ columns: Column<T>[]; caption?: string; selection?: Selection<T> } | { render: (rows: T[]) => ComponentChildren });

export function ResourceList<T extends { id: string }>(props: Props<T>) {
  const { state } = props;
  const titleId = useId('list');
  const rows = state.value?.data;
  const body = state.error ? (
    <Message error={state.error} />
  ) : !rows ? (
    <Loading what={props.what} />
  ) : rows.length === 0 ? (
    <p>{props.empty}</p>
  ) : (
    <>
      {'render' in props ? props.render(rows) : <Table rows={rows} columns={props.columns} rowKey={(row) => row.id} caption={props.caption} busy={state.loading} selection={props.selection} />}
      {props.paging && state.value && <Pager total={state.value.pagination.total} offset={props.paging.offset} size={props.paging.size} onOffset={props.paging.onOffset} what={props.what} />}
    </>
  );
  if (!props.title) return body;
  return (
    <section aria-labelledby={titleId}>
      <h2 id={titleId}>{props.title}</h2>
      {body}
    </section>
  );
}
