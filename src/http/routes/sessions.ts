// /auth: dashboard sign-in, the current session, sign-out, and changing one's own password
// (docs/dashboard.md). Outside /v1 (these make the credential; they are not the API), so no envelope
// meta rules or API counting apply; sign-in attempts and password changes are throttled by the API's
// own limiter (per address and per e-mail address).
import Type from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DomainError, forbidden } from '../../domain/errors.js';
import type { RateLimiter } from '../../domain/limits/rate-limiter.js';
import type { SessionService } from '../../domain/auth/sessions.js';
import { normaliseEmail, type UserService } from '../../domain/users/users.js';
import { clientAddress, rateLimitHeaders } from '../rate-limit.js';
import { checkCsrf, clearSessionCookie, ownOrigin, sessionToken, setSessionCookie } from '../sessions.js';

const SignIn = Type.Object(
  {
    email: Type.String({ minLength: 1, maxLength: 254 }),
    password: Type.String({ minLength: 1, maxLength: 1024 }),
  },
  { additionalProperties: false },
);

const ChangePassword = Type.Object(
  {
    current_password: Type.String({ minLength: 1, maxLength: 1024 }),
    new_password: Type.String({ minLength: 12, maxLength: 1024 }),
  },
  { additionalProperties: false },
);

export function sessionRoutes(sessions: SessionService, users: UserService, limiter: RateLimiter, maxAgeSeconds: number): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.addHook('onRequest', async (_request, reply) => {
      reply.header('Cache-Control', 'no-store');
    });

    app.post('/sign-in', { schema: { hide: true, body: SignIn } }, async (request, reply) => {
      // Login CSRF: a browser always sends Origin on a POST; another site's must not sign you in.
      if (request.headers.origin !== undefined && request.headers.origin !== ownOrigin(request)) {
        throw forbidden('Cross-site sign-in refused: sign in from the dashboard itself.');
      }
      const admission = await limiter.admitSignIn(clientAddress(request), normaliseEmail(request.body.email));
      reply.headers(rateLimitHeaders(admission.state));
      if (admission.refusal) throw admission.refusal;
      const { token, session } = await sessions.signIn(request.body.email, request.body.password, request.headers['user-agent']);
      setSessionCookie(reply, token, maxAgeSeconds);
      return { data: session.view };
    });

    app.get('/session', { schema: { hide: true } }, async (request) => {
      const token = sessionToken(request);
      const session = token === undefined ? undefined : await sessions.authenticate(token);
      if (!session) throw new DomainError('unauthorized', token === undefined ? 'You are not signed in.' : 'Your dashboard session has ended; sign in again.');
      return { data: session.view };
    });

    // The signed-in person's own password: the current one must match (throttled like sign-in, since it
    // is a password guess too); the new one ends every other session of theirs.
    app.post('/password', { schema: { hide: true, body: ChangePassword } }, async (request, reply) => {
      const token = sessionToken(request);
      const session = token === undefined ? undefined : await sessions.authenticate(token);
      if (!session) throw new DomainError('unauthorized', 'You are not signed in.');
      checkCsrf(request, session);
      const admission = await limiter.admitSignIn(clientAddress(request), normaliseEmail(session.view.user.email));
      reply.headers(rateLimitHeaders(admission.state));
      if (admission.refusal) throw admission.refusal;
      await users.changeOwnPassword(session.principal, session.id, request.body.current_password, request.body.new_password);
      return reply.code(204).send(null);
    });

    app.post('/sign-out', { schema: { hide: true } }, async (request, reply) => {
      const token = sessionToken(request);
      const session = token === undefined ? undefined : await sessions.authenticate(token);
      if (session) {
        checkCsrf(request, session);
        await sessions.signOut(session);
      }
      clearSessionCookie(reply);
      return reply.code(204).send(null);
    });
  };
}
