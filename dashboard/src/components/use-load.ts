// Loading a section's data: the value, an error in words, whether it is loading, and reload().
import { useEffect, useState } from 'preact/hooks';
import { describeError as describe } from '../api.js';

/** Loads data for a section: value, error, loading, and reload(). */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[] = []): { value: T | undefined; error: string | null; loading: boolean; reload: () => Promise<void> } {
  const [value, setValue] = useState<T | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const run = async () => {
    setLoading(true);
    try {
      setValue(await load());
      setError(null);
    } catch (e) {
      setError(describe(e));
    } finally {
      setLoading(false);
    }
  };
  useEffect(() => {
    void run();
  }, deps);
  return { value, error, loading, reload: run };
}
