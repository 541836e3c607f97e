// The sign-in and consent steps of an authorization (CONTRACT.md §15). The authorization server hands
// every authorization request here (provider.ts); these pages use the dashboard's accounts, sessions,
// sign-in throttling and session cookie (signing in here signs in the dashboard too, and a live
// dashboard session is reused), then hand the decision back: the login and a grant that covers the
// requested scopes, or access_denied. Consent is remembered per person and app for the same or fewer
// scopes; `prompt=consent` always asks.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { InteractionResults } from 'oidc-provider';
import { DomainError, forbidden } from '../../domain/errors.js';
import type { RateLimiter } from '../../domain/limits/rate-limiter.js';
import { clientAddress } from '../rate-limit.js';
import { csrfTokenMatches, type ActiveSession, type SessionService } from '../../domain/auth/sessions.js';
import type { AppForConsent, OAuthAuthorizationService } from '../../domain/oauth/authorizations.js';
import { grantableOf, type GrantableScope } from '../../domain/oauth/scopes.js';
import { normaliseEmail } from '../../domain/users/users.js';
import { checkFormToken, issueFormToken } from '../pages/forms.js';
import { sendPage } from '../pages/page.js';
import { ownOrigin, sessionToken, setSessionCookie } from '../sessions.js';
import { ConsentForm, Continue, CSRF_FIELD, SignInForm } from './pages.js';
import { INTERACTION_PATH, type Provider } from './provider.js';

export interface InteractionDeps {
  provider: () => Promise<Provider>;
  sessions: SessionService;
  limiter: RateLimiter;
  authorizations: OAuthAuthorizationService;
  sessionMaxAgeSeconds: number;
}

type Interaction = Awaited<ReturnType<Provider['interactionDetails']>>;
type Params = { uid: string };
type Form = Record<string, unknown>;

/** An authorization in progress, with what the pages need about it. */
interface Pending {
  provider: Provider;
  interaction: Interaction;
  app: AppForConsent;
  /** What is asked for: the requested scopes, or the app's own when none were named (empty when only unknown ones were). */
  scopes: GrantableScope[];
  /** Where the browser ends up: the pages' CSP must let their forms' redirects go there. */
  redirectOrigin: string;
  here: string;
}

const expired = () =>
  new DomainError('invalid_parameter', 'This sign-in request has expired or was started in another browser. Go back to the app and start again.');

export function interactionRoutes(deps: InteractionDeps) {
  async function pending(request: FastifyRequest<{ Params: Params }>, reply: FastifyReply): Promise<Pending> {
    const provider = await deps.provider();
    let interaction: Interaction;
    try {
      interaction = await provider.interactionDetails(request.raw, reply.raw);
    } catch {
      throw expired();
    }
    if (interaction.uid !== request.params.uid) throw expired();
    const app = await deps.authorizations.app(String(interaction.params.client_id));
    if (!app) throw expired();
    // The server has refused scopes the app may not ask for, and dropped those it does not know.
    const named = interaction.params.scope;
    return {
      provider,
      interaction,
      app,
      scopes: typeof named === 'string' ? grantableOf(named) : app.scopes,
      redirectOrigin: new URL(String(interaction.params.redirect_uri)).origin,
      here: `${INTERACTION_PATH}/${interaction.uid}`,
    };
  }

  async function currentSession(request: FastifyRequest): Promise<ActiveSession | undefined> {
    const token = sessionToken(request);
    return token === undefined ? undefined : deps.sessions.authenticate(token);
  }

  /** Hands the decision back to the authorization server, which redirects to the app. */
  async function finish(request: FastifyRequest, reply: FastifyReply, state: Pending, result: InteractionResults): Promise<FastifyReply> {
    const { interaction, provider } = state;
    // No scope named: the app's own, written into the request so the code carries them.
    if (result.login && interaction.params.scope === undefined) {
      interaction.params.scope = state.scopes.join(' ');
      await interaction.persist();
    }
    const returnTo = await provider.interactionResult(request.raw, reply.raw, result, { mergeWithLastSubmission: false });
    return reply.redirect(returnTo, 303);
  }

  function signInPage(request: FastifyRequest, reply: FastifyReply, state: Pending, problem?: { status: number; message: string }, email?: string) {
    return sendPage(reply, { status: problem?.status ?? 200, title: 'Sign in', formTargets: [state.redirectOrigin] }, (
      <SignInForm action={`${state.here}/sign-in`} appName={state.app.name} formToken={issueFormToken(request, reply)} email={email} error={problem?.message} />
    ));
  }

  /** Consent, unless it is remembered (and not asked for again): then straight back to the app. */
  async function consent(request: FastifyRequest, reply: FastifyReply, state: Pending, session: ActiveSession): Promise<FastifyReply> {
    const { principal } = session;
    const prompts = String(state.interaction.params.prompt ?? '').split(' ');
    if (!prompts.includes('consent')) {
      const grantId = await deps.authorizations.rememberedGrant(principal.accountId, principal.userId, state.app.id, state.scopes);
      if (grantId !== undefined) return finish(request, reply, state, { login: { accountId: principal.userId }, consent: { grantId } });
    }
    return sendPage(reply, { title: `Allow ${state.app.name}?`, formTargets: [state.redirectOrigin] }, (
      <ConsentForm
        action={`${state.here}/consent`}
        appName={state.app.name}
        scopes={state.scopes}
        csrfToken={session.csrfToken}
        user={{ email: session.view.user.email, role: principal.role }}
      />
    ));
  }

  return async (app: FastifyInstance): Promise<void> => {
    app.addHook('onRequest', async (_request, reply) => {
      reply.header('Cache-Control', 'no-store');
    });

    app.get<{ Params: Params }>(`${INTERACTION_PATH}/:uid`, { schema: { hide: true } }, async (request, reply) => {
      const state = await pending(request, reply);
      // Only scopes the service does not know were named: nothing to ask for (before anyone signs in).
      if (state.scopes.length === 0) {
        return finish(request, reply, state, { error: 'invalid_scope', error_description: 'None of the requested scopes is one this service knows.' });
      }
      const session = await currentSession(request);
      if (session) return consent(request, reply, state, session);
      // Arrived from the app's site: the SameSite=Strict session cookie stayed behind. Ask again from here.
      if (request.headers['sec-fetch-site'] === 'cross-site') {
        return sendPage(reply, { title: 'Continue', refreshTo: state.here }, <Continue to={state.here} />);
      }
      return signInPage(request, reply, state);
    });

    app.post<{ Params: Params; Body: Form }>(`${INTERACTION_PATH}/:uid/sign-in`, { schema: { hide: true } }, async (request, reply) => {
      const state = await pending(request, reply);
      const form = request.body ?? {};
      checkFormToken(request, form.form_token);
      const email = typeof form.email === 'string' ? form.email : '';
      const password = typeof form.password === 'string' ? form.password : '';
      if (email === '' || password === '') return signInPage(request, reply, state, { status: 422, message: 'Enter your e-mail address and password.' }, email);
      const admission = await deps.limiter.admitSignIn(clientAddress(request), normaliseEmail(email));
      if (admission.refusal) {
        reply.header('Retry-After', String(admission.refusal.retryAfterSeconds));
        return signInPage(request, reply, state, { status: 429, message: admission.refusal.message }, email);
      }
      try {
        const { token } = await deps.sessions.signIn(email, password, request.headers['user-agent']);
        setSessionCookie(reply, token, deps.sessionMaxAgeSeconds);
      } catch (error) {
        if (error instanceof DomainError && error.code === 'unauthorized') return signInPage(request, reply, state, { status: 401, message: error.message }, email);
        throw error;
      }
      return reply.redirect(state.here, 303);
    });

    app.post<{ Params: Params; Body: Form }>(`${INTERACTION_PATH}/:uid/consent`, { schema: { hide: true } }, async (request, reply) => {
      const state = await pending(request, reply);
      const session = await currentSession(request);
      // Signed out meanwhile: back to the sign-in form.
      if (!session) return reply.redirect(state.here, 303);
      const form = request.body ?? {};
      if (request.headers.origin !== ownOrigin(request) || !csrfTokenMatches(session, typeof form[CSRF_FIELD] === 'string' ? form[CSRF_FIELD] : undefined)) {
        throw forbidden('The form has expired or did not come from this site; go back to the app and start again.');
      }
      const { principal } = session;
      if (form.decision !== 'allow') {
        return finish(request, reply, state, { error: 'access_denied', error_description: 'The person denied the request.' });
      }
      const { provider } = state;
      const existing = await deps.authorizations.latestGrant(principal.accountId, principal.userId, state.app.id);
      const grant = (existing === undefined ? undefined : await provider.Grant.find(existing)) ?? new provider.Grant({ accountId: principal.userId, clientId: state.app.id });
      grant.addOIDCScope(state.scopes);
      const grantId = await grant.save();
      return finish(request, reply, state, { login: { accountId: principal.userId }, consent: { grantId } });
    });
  };
}
