// A table of rows by columns: the first column may head each row, an actions column keeps its heading
// for screen readers only, and rows may carry a checkbox each (for bulk actions) with "Select all".
import type { ComponentChildren } from 'preact';

export interface Column<T> {
  header: string;
  /** The heading is read out but not shown (an "Actions" column). */
  hideHeader?: boolean;
  /** This column's cells head their row (<th scope="row">): give it to the column that names the row. */
  rowHeader?: boolean;
  class?: string;
  cell: (row: T) => ComponentChildren;
}

export interface Selection<T> {
  /** The keys of the selected rows. */
  selected: string[];
  onChange: (selected: string[]) => void;
  /** How a row's checkbox is read out: "Select <label>". */
  label: (row: T) => string;
}

export function Table<T>(props: { rows: T[]; columns: Column<T>[]; rowKey: (row: T) => string; caption?: string; busy?: boolean; selection?: Selection<T> }) {
  const { rows, columns, rowKey, selection } = props;
  return (
    <div class="table-wrap" aria-busy={props.busy ? true : undefined}>
      <table>
        {props.caption && <caption class="visually-hidden">{props.caption}</caption>}
        <thead>
          <tr>
            {selection && (
              <th scope="col" class="select">
                <SelectAll rows={rows.map(rowKey)} selection={selection} />
              </th>
            )}
            {columns.map((c) => (
              <th scope="col" key={c.header}>
                {c.hideHeader ? <span class="visually-hidden">{c.header}</span> : c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const key = rowKey(row);
            return (
              <tr key={key}>
                {selection && (
                  <td class="select">
                    <input
                      type="checkbox"
                      aria-label={`Select ${selection.label(row)}`}
                      checked={selection.selected.includes(key)}
                      onChange={(e) => selection.onChange((e.currentTarget as HTMLInputElement).checked ? [...selection.selected, key] : selection.selected.filter((k) => k !== key))}
                    />
                  </td>
                )}
                {columns.map((c) =>
                  c.rowHeader ? (
                    <th scope="row" class={c.class} key={c.header}>
                      {c.cell(row)}
                    </th>
                  ) : (
                    <td class={c.class} key={c.header}>
                      {c.cell(row)}
                    </td>
                  ),
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** Selects or clears every row shown; the selection of rows on other pages stays as it is. */
function SelectAll<T>(props: { rows: string[]; selection: Selection<T> }) {
  const { rows, selection } = props;
  const all = rows.length > 0 && rows.every((k) => selection.selected.includes(k));
  const others = selection.selected.filter((k) => !rows.includes(k));
  return (
    <input
      type="checkbox"
      aria-label="Select all rows shown"
      checked={all}
      indeterminate={!all && selection.selected.some((k) => rows.includes(k))}
      onChange={(e) => selection.onChange((e.currentTarget as HTMLInputElement).checked ? [...others, ...rows] : others)}
    />
  );
}
