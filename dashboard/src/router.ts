// A small history-API router: the path is state, links navigate without a reload, Back works.
import { useEffect, useState } from 'preact/hooks';

const listeners = new Set<() => void>();

export function navigate(path: string, replace = false): void {
  if (path === location.pathname + location.search) return;
  if (replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  listeners.forEach((listener) => listener());
}

/** The current path and query, re-rendering on navigation. */
export function useLocation(): { path: string; query: URLSearchParams } {
  const [, setTick] = useState(0);
  useEffect(() => {
    const update = () => setTick((n) => n + 1);
    listeners.add(update);
    addEventListener('popstate', update);
    return () => {
      listeners.delete(update);
      removeEventListener('popstate', update);
    };
  }, []);
  return { path: location.pathname, query: new URLSearchParams(location.search) };
}

/** onClick for in-app links: a plain click navigates in place; modified clicks keep browser behaviour. */
export function linkHandler(event: MouseEvent): void {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const anchor = (event.currentTarget as HTMLAnchorElement | null) ?? null;
  if (!anchor) return;
  event.preventDefault();
  navigate(anchor.getAttribute('href') ?? '/');
}
