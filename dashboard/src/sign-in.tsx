// Sign in with e-mail and password. Errors come back in words (wrong details, too many attempts).
import { useState } from 'preact/hooks';
import { api, describeError, type SessionView } from './api.js';
import { Button, Field, Message, PageTitle } from './ui.js';

export function SignIn(props: { notice: string | null; onSignedIn: (view: SessionView) => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const reply = await api.post<SessionView>('/auth/sign-in', { email, password });
      props.onSignedIn(reply.data);
    } catch (e) {
      setError(describeError(e));
      setBusy(false);
    }
  };

  return (
    <main id="main" class="sign-in">
      <form onSubmit={submit} class="card" noValidate>
        <PageTitle>Sign in</PageTitle>
        <p class="hint">Content Management Service dashboard: API keys, webhooks, usage, users and content.</p>
        <Message error={error} success={props.notice} />
        <Field label="E-mail address" type="email" name="email" autocomplete="username" required value={email} onInput={(e) => setEmail((e.currentTarget as HTMLInputElement).value)} />
        <Field label="Password" type="password" name="password" autocomplete="current-password" required value={password} onInput={(e) => setPassword((e.currentTarget as HTMLInputElement).value)} />
        <Button kind="primary" type="submit" busy={busy} busyText="Signing in…">
          Sign in
        </Button>
        {/* A page of the service itself (server-rendered), not of this app: a full page load. */}
        <p>
          <a href="/password/forgot">Forgot password?</a>
        </p>
        <p class="hint">
          Invited? The e-mail has a link to choose your password. The owner of a new installation finds theirs in the first start's output.
        </p>
      </form>
    </main>
  );
}
