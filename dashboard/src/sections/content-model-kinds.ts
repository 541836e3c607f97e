// The content model as the dashboard shows it (CONTRACT.md §20): field definitions, the kinds in
// words, and the conversions between what an input holds (text) and what the API takes (typed JSON).

export const KINDS = ['string', 'text', 'integer', 'number', 'boolean', 'date', 'datetime', 'enum', 'url', 'media', 'reference', 'list'] as const;
export type Kind = (typeof KINDS)[number];

export interface FieldDefinition {
  name: string;
  kind: Kind;
  required?: boolean;
  default?: unknown;
  indexed?: boolean;
  description?: string;
  max_length?: number;
  min?: number | string;
  max?: number | string;
  values?: string[];
  of?: Exclude<Kind, 'list'>;
  types?: string[];
}

export interface Model {
  type: string;
  fields: FieldDefinition[];
  version: number;
  updated_at: string | null;
}

export const KIND_TEXT: Record<Kind, string> = {
  string: 'Short text (one line)',
  text: 'Long text (searchable)',
  integer: 'Whole number',
  number: 'Number',
  boolean: 'Yes / no',
  date: 'Date',
  datetime: 'Date and time',
  enum: 'Choice from a list',
  url: 'Web address',
  media: 'Media file',
  reference: 'Another content item',
  list: 'List of…',
};

/** The kind of a field's values (a list's elements). */
export const elementKind = (field: Pick<FieldDefinition, 'kind' | 'of'>): Exclude<Kind, 'list'> => (field.kind === 'list' ? (field.of ?? 'string') : field.kind);

/** A value typed for the API from what an input holds ('' is no value). A number that does not parse stays text: the API names it. */
export function typedValue(kind: Exclude<Kind, 'list'>, text: string): unknown {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  if (kind === 'integer' || kind === 'number') return Number.isFinite(Number(trimmed)) ? Number(trimmed) : trimmed;
  if (kind === 'boolean') return trimmed === 'true' ? true : trimmed === 'false' ? false : trimmed;
  if (kind === 'datetime') return Number.isNaN(Date.parse(trimmed)) ? trimmed : new Date(trimmed).toISOString();
  return kind === 'text' ? text : trimmed;
}

/** A list's elements from an input: one per line. */
export const lines = (text: string) => text.split('\n').map((line) => line.trim()).filter(Boolean);

/** A stored value as an input shows it. */
export function inputText(kind: Exclude<Kind, 'list'>, value: unknown): string {
  if (value === undefined || value === null) return '';
  if (kind === 'datetime' && typeof value === 'string') return localInput(value);
  return String(value);
}

/** An ISO time as a datetime-local input holds it (the browser's time zone, to the minute). */
export function localInput(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

/** One line on a definition's rules, for the list of fields. */
export function rulesText(field: FieldDefinition): string {
  const parts: string[] = [];
  if (field.kind === 'list') parts.push(`of ${KIND_TEXT[field.of ?? 'string'].toLowerCase()}`);
  if (field.values) parts.push(`one of ${field.values.join(', ')}`);
  if (field.max_length !== undefined) parts.push(`at most ${field.max_length} characters`);
  if (field.min !== undefined) parts.push(`from ${field.min}`);
  if (field.max !== undefined) parts.push(`up to ${field.max}`);
  if (field.types) parts.push(`items of type ${field.types.join(', ')}`);
  if (field.default !== undefined) parts.push(`default ${JSON.stringify(field.default)}`);
  return parts.join(' · ');
}
