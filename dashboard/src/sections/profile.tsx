// Your profile: who you are signed in as, and changing your own password (the current one first;
// the new one ends your other sessions, this one stays open).
import { useState } from 'preact/hooks';
import { api, describeError, type SessionView } from '../api.js';
import { Button, Field, Message, PageTitle } from '../ui.js';

export function ProfileSection({ session }: { session: SessionView }) {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ error?: string; success?: string }>({});

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setMessage({});
    try {
      await api.post('/auth/password', { current_password: current, new_password: next });
      setCurrent('');
      setNext('');
      setMessage({ success: 'Your password has been changed. Your other sessions have ended; this one stays open.' });
    } catch (e) {
      setMessage({ error: describeError(e) });
    } finally {
      setBusy(false);
    }
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
      <form class="card" onSubmit={submit} aria-labelledby="change-password" noValidate>
        <h2 id="change-password">Change your password</h2>
        <Message error={message.error} success={message.success} />
        {/* For password managers: the account whose password this is. */}
        <input type="hidden" name="username" autocomplete="username" value={session.user.email} />
        <Field label="Current password" type="password" autocomplete="current-password" required value={current} onInput={(e) => setCurrent((e.currentTarget as HTMLInputElement).value)} />
        <Field
          label="New password"
          type="password"
          autocomplete="new-password"
          required
          minLength={12}
          hint="At least 12 characters."
          value={next}
          onInput={(e) => setNext((e.currentTarget as HTMLInputElement).value)}
        />
        <Button kind="primary" type="submit" busy={busy} busyText="Changing…">
          Change password
        </Button>
      </form>
    </>
  );
}
