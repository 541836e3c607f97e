// Dates in the reader's locale, with a word for "none".

export function formatDate(value: string | null | undefined, empty = '—'): string {
  if (!value) return empty;
  const date = new Date(value);
  return date.toLocaleString(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
}
