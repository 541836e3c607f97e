// Users (admins and owners): list with paging, add, change role, remove with confirmation.
import { useState } from 'preact/hooks';
import { api, type Role, type SessionView } from '../api.js';
import { Button, Confirm, Field, Form, formatDate, Message, PageTitle, ResourceList, Select, Submit, useAction, useConfirm, useForm, useLoad, type Column } from '../components/index.js';

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
  const actions = useAction();
  const remove = useConfirm(actions, 'remove', async (user: User) => {
    await api.delete(`/v1/users/${user.id}`);
    await users.reload();
    return `Removed ${user.email}. Their keys and sessions stopped working; their content stays.`;
  });
  const owner = session.user.role === 'owner';
  const grantable = (Object.keys(ROLE_TEXT) as Role[]).filter((r) => owner || r !== 'owner');
  const locked = (u: User) => u.id === session.user.id || (u.role === 'owner' && !owner);

  const changeRole = (user: User, role: Role) =>
    actions.run(user.id, async () => {
      await api.put(`/v1/users/${user.id}`, { role });
      await users.reload();
      return `${user.email} is now ${role}.`;
    });

  const columns: Column<User>[] = [
    { header: 'Name', rowHeader: true, cell: (u) => u.name },
    { header: 'E-mail', cell: (u) => u.email },
    {
      header: 'Role',
      cell: (u) =>
        locked(u) ? (
          <span>
            {u.role}
            {u.id === session.user.id ? ' (you)' : ''}
          </span>
        ) : (
          <RoleSelect user={u} roles={grantable} busy={actions.busy === u.id} onChange={(role) => changeRole(u, role)} />
        ),
    },
    { header: 'Added', cell: (u) => formatDate(u.created_at) },
    {
      header: 'Actions',
      hideHeader: true,
      cell: (u) =>
        !locked(u) && (
          <Button kind="danger" onClick={() => remove.ask(u)} label={`Remove ${u.email}`}>
            Remove
          </Button>
        ),
    },
  ];

  return (
    <>
      <PageTitle>Users</PageTitle>
      <Message {...actions.outcome} />
      <AddUser roles={grantable} onAdded={async (u, invited) => (actions.say({ success: `Added ${u.email} as ${u.role}.${invited ? ' An invitation to choose a password is on its way to them.' : ''}` }), await users.reload())} />
      <ResourceList title="People in the account" state={users} what="users" empty="No users." columns={columns} paging={{ offset, size: PAGE, onOffset: setOffset }} />
      {remove.subject && (
        <Confirm title={`Remove ${remove.subject.email}?`} confirmText="Remove user" {...remove.dialog}>
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

function AddUser(props: { roles: Role[]; onAdded: (user: User, invited: boolean) => void }) {
  const form = useForm({ email: '', name: '', role: 'viewer', password: '' });
  const submit = async (values: typeof form.values) => {
    const body: Record<string, string> = { email: values.email.trim(), name: values.name.trim(), role: values.role };
    if (values.password) body.password = values.password;
    const reply = await api.post<User>('/v1/users', body);
    form.reset('email', 'name', 'password');
    props.onAdded(reply.data, !body.password);
  };
  return (
    <Form form={form} title="Add a user" onSubmit={submit}>
      <div class="grid-2">
        <Field label="E-mail address" type="email" autocomplete="off" required {...form.bind('email')} />
        <Field label="Name" required maxLength={100} {...form.bind('name')} />
      </div>
      <Select label="Role" {...form.bind('role')} options={props.roles.map((r) => [r, ROLE_TEXT[r]])} />
      <Field
        label="Password (optional)"
        type="password"
        autocomplete="new-password"
        hint="At least 12 characters. Leave it empty to e-mail the user an invitation to choose their own (the link works for 7 days)."
        {...form.bind('password')}
      />
      <Submit busyText="Adding…">Add user</Submit>
    </Form>
  );
}
