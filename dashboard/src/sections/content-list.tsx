// The content list: type and status filters, paging, a link to each item's editor, and checkboxes
// for bulk actions (content-bulk.tsx).
import { useState } from 'preact/hooks';
import { api, type SessionView } from '../api.js';
import { mayEditAnyContent, mayWriteContent } from '../sections.js';
import { BulkActions } from './content-bulk.js';
import { formatDate, Link, PageTitle, ResourceList, Select, useLoad, type Column } from '../components/index.js';
import { TYPES, type Item } from './content-item.js';

const PAGE = 10;

const COLUMNS: Column<Item>[] = [
  { header: 'Title', rowHeader: true, cell: (item) => <Link href={`/content/${item.id}`}>{item.title}</Link> },
  { header: 'Type', cell: (item) => TYPES.find(([t]) => t === item.type)?.[1] ?? item.type },
  { header: 'Status', cell: (item) => <span class={`badge ${item.status}`}>{item.status}</span> },
  { header: 'Updated', cell: (item) => formatDate(item.updated_at) },
];

export function ContentList({ session }: { session: SessionView }) {
  const [type, setType] = useState('');
  const [status, setStatus] = useState('');
  const [offset, setOffset] = useState(0);
  const [selected, setSelected] = useState<string[]>([]);
  const query = new URLSearchParams({ limit: String(PAGE), offset: String(offset) });
  if (type) query.set('type', type);
  if (status) query.set('status', status);
  const items = useLoad(() => api.page<Item>(`/v1/content?${query}`), [type, status, offset]);
  const filter: Record<string, string> = { ...(type ? { type } : {}), ...(status ? { status } : {}) };
  const writer = mayWriteContent(session.user.role);
  return (
    <>
      <PageTitle>Content</PageTitle>
      {mayWriteContent(session.user.role) && (
        <p>
          <Link href="/content/new" class="button primary">
            New content
          </Link>
        </p>
      )}
      <form class="filters" role="search" aria-label="Filter content" onSubmit={(e) => e.preventDefault()}>
        <Select label="Type" value={type} onValue={(v) => (setType(v), setOffset(0))} options={[['', 'All types'], ...TYPES]} />
        <Select
          label="Status"
          value={status}
          onValue={(v) => (setStatus(v), setOffset(0))}
          options={[
            ['', 'All statuses'],
            ['draft', 'Draft'],
            ['published', 'Published'],
            ['archived', 'Archived'],
          ]}
        />
      </form>
      {writer && (
        <BulkActions
          selected={selected}
          matching={items.value?.pagination.total ?? 0}
          filter={filter}
          allowJobs={mayEditAnyContent(session.user.role)}
          onDone={() => (setSelected([]), void items.reload())}
        />
      )}
      <ResourceList
        state={items}
        what="content"
        empty="Nothing matches these filters."
        columns={COLUMNS}
        paging={{ offset, size: PAGE, onOffset: setOffset }}
        selection={writer ? { selected, onChange: setSelected, label: (item) => item.title } : undefined}
      />
    </>
  );
}
