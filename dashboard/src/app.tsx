// The app shell: finds out whether a session is open, shows sign-in or the sections the role allows,
// and keeps the CSRF token of the session for every state-changing call.
import { useEffect, useState } from 'preact/hooks';
import { api, useCsrfToken, whenSessionEnds, type SessionView } from './api.js';
import { navigate, useLocation } from './router.js';
import { SECTIONS } from './sections.js';
import { Button, Link, Loading, Message, PageTitle, useAction } from './components/index.js';
import { SignIn } from './sign-in.js';
import { KeysSection } from './sections/keys.js';
import { SettingsSection } from './sections/settings.js';
import { UsageSection } from './sections/usage.js';
import { UsersSection } from './sections/users.js';
import { ContentSection } from './sections/content.js';
import { OAuthAppsSection } from './sections/oauth-apps.js';
import { ConnectedAppsSection } from './sections/connected-apps.js';
import { ProfileSection } from './sections/profile.js';
import { ContentModelSection } from './sections/content-model.js';
import { MediaSection } from './sections/media.js';

export function App() {
  const [session, setSession] = useState<SessionView | null | undefined>(undefined);
  const [notice, setNotice] = useState<string | null>(null);
  const leaving = useAction();
  const { path } = useLocation();

  const opened = (view: SessionView | null) => {
    useCsrfToken(view?.csrf_token ?? null);
    setSession(view);
  };

  useEffect(() => {
    whenSessionEnds(() => {
      opened(null);
      setNotice('Your session has ended. Sign in again to continue.');
    });
    api.get<SessionView>('/auth/session').then(
      (reply) => opened(reply.data),
      () => opened(null),
    );
  }, []);

  useEffect(() => {
    if (session === null && path !== '/sign-in') navigate('/sign-in', true);
    if (session && (path === '/' || path === '/sign-in')) navigate('/keys', true);
  }, [session, path]);

  if (session === undefined) {
    return (
      <main id="main" class="centered">
        <Loading what="your session" />
      </main>
    );
  }
  if (session === null) {
    return (
      <SignIn
        notice={notice}
        onSignedIn={(view) => {
          setNotice(null);
          opened(view);
        }}
      />
    );
  }

  const signOut = () =>
    leaving.run('sign-out', async () => {
      await api.post('/auth/sign-out');
      opened(null);
      setNotice('You have signed out.');
    });

  const allowed = SECTIONS.filter((s) => s.roles.includes(session.user.role));
  const section = SECTIONS.find((s) => path === s.path || path.startsWith(`${s.path}/`));
  return (
    <>
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="top">
        <div class="brand">
          <span class="logo" aria-hidden="true">
            ▣
          </span>{' '}
          Content Management Service
        </div>
        <div class="who">
          <span>
            {session.user.email} · <span class="badge">{session.user.role}</span> · plan <span class="badge">{session.account.plan}</span>
          </span>
          <Button onClick={signOut} busy={leaving.busy !== null} busyText="Signing out…">
            Sign out
          </Button>
        </div>
      </header>
      <nav aria-label="Sections" class="sections">
        <ul>
          {allowed.map((s) => (
            <li key={s.path}>
              <Link href={s.path} current={section?.path === s.path}>
                {s.title}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" tabIndex={-1}>
        <Message error={leaving.outcome.error} />
        {!section ? (
          <NotFound />
        ) : !section.roles.includes(session.user.role) ? (
          <NoAccess title={section.title} />
        ) : (
          <Route path={path} session={session} />
        )}
      </main>
    </>
  );
}

function Route(props: { path: string; session: SessionView }) {
  const { path, session } = props;
  if (path.startsWith('/keys')) return <KeysSection session={session} />;
  if (path.startsWith('/oauth-apps')) return <OAuthAppsSection session={session} />;
  if (path.startsWith('/connected-apps')) return <ConnectedAppsSection session={session} />;
  if (path.startsWith('/settings')) return <SettingsSection session={session} />;
  if (path.startsWith('/usage')) return <UsageSection session={session} />;
  if (path.startsWith('/users')) return <UsersSection session={session} />;
  if (path.startsWith('/profile')) return <ProfileSection session={session} />;
  if (path.startsWith('/content-model')) return <ContentModelSection />;
  if (path.startsWith('/media')) return <MediaSection session={session} />;
  return <ContentSection session={session} path={path} />;
}

function NoAccess(props: { title: string }) {
  return (
    <>
      <PageTitle>{props.title}</PageTitle>
      <p>Your role does not give access to this section. Ask an admin or an owner of your account.</p>
    </>
  );
}

function NotFound() {
  return (
    <>
      <PageTitle>Page not found</PageTitle>
      <p>
        There is no page here. Go to <Link href="/keys">API Keys</Link>.
      </p>
    </>
  );
}
