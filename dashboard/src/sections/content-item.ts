// A content item as the dashboard shows it, and the content types in words.

export interface Item {
  id: string;
  title: string;
  type: string;
  /** Null only for an item written before slugs existed, until it gets one. */
  slug: string | null;
  status: 'draft' | 'published' | 'archived';
  author: string;
  content?: string;
  created_at: string;
  updated_at: string;
  published_at: string | null;
  publish_at?: string | null;
  unpublish_at?: string | null;
  version: number;
  /** The typed fields of the item's type (CONTRACT.md §20). */
  fields?: Record<string, unknown>;
}

export const TYPES: [string, string][] = [
  ['blog', 'Blog post'],
  ['manual', 'Manual'],
  ['whitepaper', 'White paper'],
  ['strategy', 'Strategy document'],
];
