// Users (admins and owners): list with paging, add, change role, remove with confirmation.
import { useState } from 'preact/hooks';
import { api, describeError, type Role, type SessionView } from '../api.js';
import { Button, Confirm, Field, formatDate, Loading, Message, PageTitle, Select, useLoad } from '../ui.js';

interface User {
  id: string;
  email: string;
  name: string;
  role: Role;
  created_at: string;
}

const PAGE = 20;
const ROLE_TEXT: Record<Role, string> = {
  owner: 'Owner — everything, including owners',
  admin: 'Admin — users, keys, webhooks, all content',
  editor: 'Editor — all content',
  author: 'Author — their own content',
  viewer: 'Viewer — read only',
};

export function UsersSection({ session }: { session: SessionView }) {
  const [offset, setOffset] = useState(0);
  const users = useLoad(() => api.page<User>(`/v1/users?limit=${PAGE}&offset=${offset}`), [offset]);
  const [message, setMessage] = useState<{ error?: string; success?: string }>({});
  const [removing, setRemoving] = useState<User | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const owner = session.user.role === 'owner';
  const grantable = (Object.keys(ROLE_TEXT) as Role[]).filter((r) => owner || r !== 'owner');

  const changeRole = async (user: User, role: Role) => {
    setBusy(user.id);
    setMessage({});
    try {
      await api.put(`/v1/users/${user.id}`, { role });
      setMessage({ success: `${user.email} is now ${role}.` });
      await users.reload();
    } catch (e) {
      setMessage({ error: describeError(e) });
    } finally {
      setBusy(null);
    }
  };

  const remove = async (yes: boolean) => {
    if (!yes || !removing) return setRemoving(null);
    setBusy('remove');
    try {
      await api.delete(`/v1/users/${removing.id}`);
      setMessage({ success: `Removed ${removing.email}. Their keys and sessions stopped working; their content stays.` });
      await users.reload();
    } catch (e) {
      setMessage({ error: describeError(e) });
    } finally {
      setBusy(null);
      setRemoving(null);
    }
  };

  const page = users.value?.pagination;
  return (
    <>
      <PageTitle>Users</PageTitle>
      <Message error={message.error} success={message.success} />
      <AddUser
        roles={grantable}
        onAdded={async (u, invited) => (setMessage({ success: `Added ${u.email} as ${u.role}.${invited ? ' An invitation to choose a password is on its way to them.' : ''}` }), await users.reload())}
      />
      <section aria-labelledby="users-title">
        <h2 id="users-title">People in the account</h2>
        {users.error ? (
          <Message error={users.error} />
        ) : !users.value ? (
          <Loading what="users" />
        ) : (
          <>
            <div class="table-wrap">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">E-mail</th>
                    <th scope="col">Role</th>
                    <th scope="col">Added</th>
                    <th scope="col">
                      <span class="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {users.value.data.map((u) => {
                    const self = u.id === session.user.id;
                    const locked = self || (u.role === 'owner' && !owner);
                    return (
                      <tr key={u.id}>
                        <th scope="row">{u.name}</th>
                        <td>{u.email}</td>
                        <td>
                          {locked ? (
                            <span>
                              {u.role}
                              {self ? ' (you)' : ''}
                            </span>
                          ) : (
                            <RoleSelect user={u} roles={grantable} busy={busy === u.id} onChange={(role) => changeRole(u, role)} />
                          )}
                        </td>
                        <td>{formatDate(u.created_at)}</td>
                        <td>{!locked && <Button kind="danger" onClick={() => setRemoving(u)} label={`Remove ${u.email}`}>Remove</Button>}</td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
            {page && <Pager total={page.total} offset={offset} size={PAGE} onOffset={setOffset} what="users" />}
          </>
        )}
      </section>
      {removing && (
        <Confirm title={`Remove ${removing.email}?`} confirmText="Remove user" onAnswer={remove} busy={busy === 'remove'}>
          <p>Their API keys and dashboard sessions stop working at once. Content they wrote stays.</p>
        </Confirm>
      )}
    </>
  );
}

function RoleSelect(props: { user: User; roles: Role[]; busy: boolean; onChange: (role: Role) => void }) {
  const [role, setRole] = useState<Role>(props.user.role);
  const id = `role-${props.user.id}`;
  return (
    <div class="inline">
      <label for={id} class="visually-hidden">
        Role of {props.user.email}
      </label>
      <select id={id} value={role} onChange={(e) => setRole((e.currentTarget as HTMLSelectElement).value as Role)}>
        {props.roles.map((r) => (
          <option key={r} value={r}>
            {r}
          </option>
        ))}
      </select>
      <Button onClick={() => props.onChange(role)} busy={props.busy} busyText="Saving…" disabled={role === props.user.role} label={`Save role of ${props.user.email}`}>
        Save
      </Button>
    </div>
  );
}

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

function AddUser(props: { roles: Role[]; onAdded: (user: User, invited: boolean) => void }) {
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('viewer');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const body: Record<string, string> = { email: email.trim(), name: name.trim(), role };
      if (password) body.password = password;
      const reply = await api.post<User>('/v1/users', body);
      setEmail('');
      setName('');
      setPassword('');
      props.onAdded(reply.data, !body.password);
    } catch (e) {
      setError(describeError(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="card" onSubmit={submit} aria-labelledby="add-user" noValidate>
      <h2 id="add-user">Add a user</h2>
      <Message error={error} />
      <div class="grid-2">
        <Field label="E-mail address" type="email" autocomplete="off" required value={email} onInput={(e) => setEmail((e.currentTarget as HTMLInputElement).value)} />
        <Field label="Name" required maxLength={100} value={name} onInput={(e) => setName((e.currentTarget as HTMLInputElement).value)} />
      </div>
      <Select label="Role" value={role} onChange={(v) => setRole(v as Role)} options={props.roles.map((r) => [r, ROLE_TEXT[r]])} />
      <Field
        label="Password (optional)"
        type="password"
        autocomplete="new-password"
        hint="At least 12 characters. Leave it empty to e-mail the user an invitation to choose their own (the link works for 7 days)."
        value={password}
        onInput={(e) => setPassword((e.currentTarget as HTMLInputElement).value)}
      />
      <Button kind="primary" type="submit" busy={busy} busyText="Adding…">
        Add user
      </Button>
    </form>
  );
}
