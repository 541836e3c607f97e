// The password pages (CONTRACT.md §16), server-rendered under /password: "Forgot password?" (the
// same answer whether an account uses the address or not, throttled per client address like sign-in
// and per e-mail address in a bucket of its own, so that reset requests never block signing in) and the page a one-time link opens to set a password, after an
// invitation or a reset. The link's token comes in the query (request logs redact `token=`) and
// goes back in the form's body; nothing is used up until the form is sent.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { PasswordLinks } from '../../domain/auth/password-links.js';
import type { RateLimiter } from '../../domain/limits/rate-limiter.js';
import { clientAddress } from '../rate-limit.js';
import { isEmailAddress, normaliseEmail } from '../../domain/users/users.js';
import { checkFormToken, FORM_FIELD, issueFormToken } from './forms.js';
import { Field, Message, sendPage } from './page.js';

const MIN_LENGTH = 12;
const MAX_LENGTH = 1024;

function field(request: FastifyRequest, name: string): string {
  const value = (request.body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : '';
}

function SignInLink() {
  return (
    <p class="hint">
      <a href="/">Back to sign in</a>
    </p>
  );
}

function ForgotForm(props: { formToken: string; email?: string; error?: string }) {
  return (
    <>
      <p>Enter the e-mail address you sign in with. We will send it a link to choose a new password.</p>
      <Message error={props.error} />
      <form method="post" action="/password/forgot">
        <input type="hidden" name={FORM_FIELD} value={props.formToken} />
        <Field label="Email" name="email" type="email" autocomplete="email" value={props.email} />
        <div class="actions">
          <button class="primary" type="submit">
            Send reset link
          </button>
        </div>
      </form>
      <SignInLink />
    </>
  );
}

function SetForm(props: { formToken: string; token: string; email: string; error?: string }) {
  return (
    <>
      <p>
        Choose the password for <strong>{props.email}</strong>: at least {MIN_LENGTH} characters. Setting it signs you out everywhere else.
      </p>
      <Message error={props.error} />
      <form method="post" action="/password/set">
        <input type="hidden" name={FORM_FIELD} value={props.formToken} />
        <input type="hidden" name="token" value={props.token} />
        {/* For password managers: the account the new password belongs to. */}
        <input type="hidden" name="username" autocomplete="username" value={props.email} />
        <Field label="New password" name="password" type="password" autocomplete="new-password" />
        <div class="actions">
          <button class="primary" type="submit">
            Set password
          </button>
        </div>
      </form>
    </>
  );
}

function LinkSpent() {
  return (
    <>
      <p role="alert">This link no longer works: it has expired, or it was used already. Each link works once.</p>
      <p>
        Ask for a new one with <a href="/password/forgot">Forgot password?</a>, or ask whoever invited you to send the invitation again.
      </p>
    </>
  );
}

export function passwordPages(links: PasswordLinks, limiter: RateLimiter) {
  return async (app: FastifyInstance): Promise<void> => {
    app.get('/forgot', async (request, reply) => sendPage(reply, { title: 'Forgot password?' }, <ForgotForm formToken={issueFormToken(request, reply)} />));

    app.post('/forgot', async (request, reply) => {
      checkFormToken(request, field(request, FORM_FIELD));
      const formToken = issueFormToken(request, reply);
      const email = normaliseEmail(field(request, 'email'));
      if (!isEmailAddress(email)) {
        return sendPage(reply, { status: 422, title: 'Forgot password?' }, <ForgotForm formToken={formToken} email={email} error="Enter the e-mail address you sign in with." />);
      }
      const admission = await limiter.admitPasswordReset(clientAddress(request), email);
      if (admission.refusal) throw admission.refusal;
      // Not awaited: whether an account uses the address must not show, not even in the time the answer takes.
      links.requestReset(email).catch((error: unknown) => request.log.error({ err: error }, 'could not queue a password reset'));
      return sendPage(reply, { title: 'Check your e-mail' }, (
        <>
          <p role="status">
            If an account uses <strong>{email}</strong>, we have sent it a link to choose a new password. The link works once, for 1 hour.
          </p>
          <p class="hint">Nothing arrived after a few minutes? Look in the spam folder, or ask again.</p>
          <SignInLink />
        </>
      ));
    });

    app.get('/set', async (request, reply) => {
      const token = String((request.query as Record<string, unknown>).token ?? '');
      const link = await links.check(token);
      if (!link) return sendPage(reply, { status: 410, title: 'This link has expired' }, <LinkSpent />);
      return sendPage(reply, { title: 'Set your password' }, <SetForm formToken={issueFormToken(request, reply)} token={token} email={link.email} />);
    });

    app.post('/set', async (request, reply) => {
      checkFormToken(request, field(request, FORM_FIELD));
      const token = field(request, 'token');
      const password = field(request, 'password');
      const length = [...password].length;
      if (length < MIN_LENGTH || length > MAX_LENGTH) {
        const link = await links.check(token);
        if (!link) return sendPage(reply, { status: 410, title: 'This link has expired' }, <LinkSpent />);
        const error = length < MIN_LENGTH ? `The password must have at least ${MIN_LENGTH} characters.` : `The password may have at most ${MAX_LENGTH} characters.`;
        return sendPage(reply, { status: 422, title: 'Set your password' }, <SetForm formToken={issueFormToken(request, reply)} token={token} email={link.email} error={error} />);
      }
      const done = await links.setPassword(token, password);
      if (!done) return sendPage(reply, { status: 410, title: 'This link has expired' }, <LinkSpent />);
      return sendPage(reply, { title: 'Your password is set' }, (
        <>
          <p role="status">
            You can now sign in as <strong>{done.email}</strong> with your new password.
          </p>
          <p>
            <a href="/">Sign in</a>
          </p>
        </>
      ));
    });
  };
}
