// Your profile: who you are signed in as, and changing your own password (the current one first;
// the new one ends your other sessions, this one stays open).
import { api, type SessionView } from '../api.js';
import { Field, Form, PageTitle, Submit, useForm } from '../components/index.js';

export function ProfileSection({ session }: { session: SessionView }) {
  const form = useForm({ current_password: '', new_password: '' });
  const submit = async (values: typeof form.values) => {
    await api.post('/auth/password', values);
    form.reset();
    return 'Your password has been changed. Your other sessions have ended; this one stays open.';
  };

  return (
    <>
      <PageTitle>Profile</PageTitle>
      <dl class="facts">
        <dt>Name</dt>
        <dd>{session.user.name}</dd>
        <dt>E-mail address</dt>
        <dd>{session.user.email}</dd>
        <dt>Role</dt>
        <dd>{session.user.role}</dd>
      </dl>
      <Form form={form} title="Change your password" onSubmit={submit}>
        {/* For password managers: the account whose password this is. */}
        <input type="hidden" name="username" autocomplete="username" value={session.user.email} />
        <Field label="Current password" type="password" autocomplete="current-password" required {...form.bind('current_password')} />
        <Field label="New password" type="password" autocomplete="new-password" required minLength={12} hint="At least 12 characters." {...form.bind('new_password')} />
        <Submit busyText="Changing…">Change password</Submit>
      </Form>
    </>
  );
}
