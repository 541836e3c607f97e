// The OAuth pages people see (CONTRACT.md §15): sign in (Email, Password, Sign in), consent (the app,
// its scopes in words, Allow / Deny), the same-site hop that lets the session cookie through, and
// the error page for a request that cannot be sent back to the app. Rendered in the frame of
// src/http/pages: escaped by construction, no script, nothing from another origin, never framed.
import type { Role } from '../../domain/auth/permissions.js';
import { roleMayHold } from '../../domain/auth/permissions.js';
import { SCOPE_WORDS, type GrantableScope } from '../../domain/oauth/scopes.js';
import { FORM_FIELD } from '../pages/forms.js';
import { Field, Message } from '../pages/page.js';

/** The field that carries the session's CSRF token on the consent form. */
export const CSRF_FIELD = 'csrf_token';

export function SignInForm(props: { action: string; appName: string; formToken: string; email?: string; error?: string }) {
  return (
    <>
      <p>
        to let <strong>{props.appName}</strong> use your Content Management Service account.
      </p>
      <Message error={props.error} />
      <form method="post" action={props.action}>
        <input type="hidden" name={FORM_FIELD} value={props.formToken} />
        <Field label="Email" name="email" type="email" autocomplete="username" value={props.email} />
        <Field label="Password" name="password" type="password" autocomplete="current-password" />
        <div class="actions">
          <button type="submit" class="primary">
            Sign in
          </button>
        </div>
      </form>
      <p class="hint">
        <a href="/password/forgot">Forgot password?</a>
      </p>
    </>
  );
}

export interface ConsentProps {
  action: string;
  appName: string;
  scopes: GrantableScope[];
  csrfToken: string;
  user: { email: string; role: Role };
}

export function ConsentForm(props: ConsentProps) {
  const allowed = props.scopes.filter((s) => roleMayHold(props.user.role, s));
  const withheld = props.scopes.filter((s) => !roleMayHold(props.user.role, s));
  return (
    <>
      <p>
        <strong>{props.appName}</strong> asks to act for you. It will be able to:
      </p>
      <ul class="scopes">
        {allowed.map((scope) => (
          <li key={scope}>{SCOPE_WORDS[scope]}</li>
        ))}
      </ul>
      {withheld.length > 0 && (
        <>
          <p class="hint">Your role ({props.user.role}) does not allow these, so the app will not be able to:</p>
          <ul class="scopes hint">
            {withheld.map((scope) => (
              <li key={scope}>{SCOPE_WORDS[scope]}</li>
            ))}
          </ul>
        </>
      )}
      <p class="hint">
        Signed in as {props.user.email}. You can disconnect the app at any time under Connected Apps in the dashboard.
      </p>
      <form method="post" action={props.action}>
        <input type="hidden" name={CSRF_FIELD} value={props.csrfToken} />
        <div class="actions">
          <button type="submit" name="decision" value="allow" class="primary">
            Allow
          </button>
          <button type="submit" name="decision" value="deny">
            Deny
          </button>
        </div>
      </form>
    </>
  );
}

/** Shown to a browser that arrived from another site: the same URL again, now from this site, so the SameSite=Strict session cookie comes along. */
export function Continue(props: { to: string }) {
  return (
    <p>
      Continuing to sign-in… If nothing happens, <a href={props.to}>continue here</a>.
    </p>
  );
}

export function ErrorText(props: { error: string; description?: string; requestId?: string }) {
  return (
    <>
      <p role="alert">{props.description ?? props.error}</p>
      <p class="hint">Nothing was sent to the app. Go back to it and try again, or tell its makers (error: {props.error}).</p>
      {props.requestId !== undefined && <p class="hint">Reference: {props.requestId}</p>}
    </>
  );
}
