// Bulk actions on the content list (docs/bulk.md): publish, archive or delete the selected rows (one
// batch request, each row standing alone) or every item the filters match (a bulk job, for editors
// and above), with the job's progress as a bar until it ends.
import { useEffect, useState } from 'preact/hooks';
import { api, describeError } from '../api.js';
import { Button, Message, ProgressBar } from '../components/index.js';

type Action = 'publish' | 'archive' | 'delete';
const WORDS: Record<Action, [string, string]> = { publish: ['Publish', 'published'], archive: ['Archive', 'archived'], delete: ['Delete', 'deleted'] };

interface Job {
  id: string;
  status: string;
  total: number;
  done: number;
  failed: number;
}

export function BulkActions(props: { selected: string[]; matching: number; filter: Record<string, string>; allowJobs: boolean; onDone: () => void }) {
  const [message, setMessage] = useState<{ error?: string; success?: string }>({});
  const [busy, setBusy] = useState(false);
  const [job, setJob] = useState<Job | null>(null);

  // Follow a running job until it ends.
  useEffect(() => {
    if (!job || ['succeeded', 'failed', 'cancelled'].includes(job.status)) return;
    const timer = setTimeout(() => {
      api.get<Job>(`/v1/jobs/${job.id}`).then(
        (reply) => {
          setJob(reply.data);
          if (!['queued', 'running'].includes(reply.data.status)) {
            setMessage({ success: `Job ${reply.data.status}: ${reply.data.done} of ${reply.data.total} done${reply.data.failed ? `, ${reply.data.failed} failed` : ''}.` });
            props.onDone();
          }
        },
        (error: unknown) => setMessage({ error: describeError(error) }),
      );
    }, 500);
    return () => clearTimeout(timer);
  }, [job]);

  async function onSelection(action: Action) {
    setBusy(true);
    try {
      const reply = await api.post<{ status: number }[]>('/v1/content/batch', { atomic: false, operations: props.selected.map((id) => ({ op: action, id })) });
      const failed = reply.data.filter((r) => r.status >= 300).length;
      setMessage({ success: `${reply.data.length - failed} ${WORDS[action][1]}${failed ? `, ${failed} failed` : ''}.` });
      props.onDone();
    } catch (error) {
      setMessage({ error: describeError(error) });
    } finally {
      setBusy(false);
    }
  }

  async function onAll(action: Action) {
    if (action === 'delete' && !window.confirm(`Delete all ${props.matching} matching items? This cannot be undone.`)) return;
    setBusy(true);
    try {
      const reply = await api.post<Job>('/v1/content/bulk', { action, filter: props.filter });
      setJob(reply.data);
      setMessage({ success: `Job started: ${WORDS[action][0].toLowerCase()} ${reply.data.total} items.` });
      if (reply.data.status === 'succeeded') props.onDone();
    } catch (error) {
      setMessage({ error: describeError(error) });
    } finally {
      setBusy(false);
    }
  }

  const running = job !== null && ['queued', 'running'].includes(job.status);
  return (
    <div class="bulk-actions" role="group" aria-label="Bulk actions">
      {props.selected.length > 0 && (
        <p>
          {props.selected.length} selected:{' '}
          {(Object.keys(WORDS) as Action[]).map((action) => (
            <Button key={action} kind={action === 'delete' ? 'danger' : 'secondary'} busy={busy} onClick={() => void onSelection(action)} label={`${WORDS[action][0]} selected`}>
              {WORDS[action][0]}
            </Button>
          ))}
        </p>
      )}
      {props.allowJobs && props.matching > 0 && (
        <p>
          All {props.matching} matching:{' '}
          {(Object.keys(WORDS) as Action[]).map((action) => (
            <Button key={action} kind={action === 'delete' ? 'danger' : 'secondary'} busy={busy || running} onClick={() => void onAll(action)} label={`${WORDS[action][0]} all ${props.matching} matching`}>
              {WORDS[action][0]} all
            </Button>
          ))}
        </p>
      )}
      {job && <ProgressBar value={job.done + job.failed} max={Math.max(job.total, 1)} label="Job progress" />}
      <Message error={message.error} success={message.success} />
    </div>
  );
}
