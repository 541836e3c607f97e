// Sign in with e-mail and password. Errors come back in words (wrong details, too many attempts).
import { api, type SessionView } from './api.js';
import { Field, Form, Message, PageTitle, Submit, useForm } from './components/index.js';

export function SignIn(props: { notice: string | null; onSignedIn: (view: SessionView) => void }) {
  const form = useForm({ email: '', password: '' });
  const submit = async (values: typeof form.values) => {
    const reply = await api.post<SessionView>('/auth/sign-in', values);
    props.onSignedIn(reply.data);
  };

  return (
    <main id="main" class="sign-in">
      <Form form={form} message={false} onSubmit={submit}>
        <PageTitle>Sign in</PageTitle>
        <p class="hint">Content Management Service dashboard: API keys, webhooks, usage, users and content.</p>
        <Message error={form.outcome.error} success={props.notice} />
        <Field label="E-mail address" type="email" autocomplete="username" required {...form.bind('email')} />
        <Field label="Password" type="password" autocomplete="current-password" required {...form.bind('password')} />
        <Submit busyText="Signing in…">Sign in</Submit>
        {/* A page of the service itself (server-rendered), not of this app: a full page load. */}
        <p>
          <a href="/password/forgot">Forgot password?</a>
        </p>
        <p class="hint">
          Invited? The e-mail has a link to choose your password. The owner of a new installation finds theirs in the first start's output.
        </p>
      </Form>
    </main>
  );
}
