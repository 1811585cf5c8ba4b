import { useCallback, useEffect, useEffectEvent, useRef, useState, type DependencyList } from 'react';

export type RequestState<T> =
  { status: 'loading' } | { status: 'ready'; data: T } | { status: 'error'; error: unknown };

const LOADING = { status: 'loading' } as const;

/**
 * Loads data for a screen: runs `load` on mount and whenever `deps` change (showing loading), aborts the
 * call when the screen goes away or the deps change, and offers `reload` (a retry button, a socket
 * reconnect). A reload keeps data already shown until the new answer arrives, so a background refetch does
 * not blank the screen; a reload after an error shows loading again.
 */
export function useRequest<T>(
  load: (signal: AbortSignal) => Promise<T>,
  deps: DependencyList,
): RequestState<T> & { reload: () => void } {
  const [state, setState] = useState<RequestState<T>>(LOADING);
  const [generation, setGeneration] = useState(0);
  const reloading = useRef(false);
  const run = useEffectEvent(load);

  useEffect(() => {
    const keepShown = reloading.current;
    reloading.current = false;
    setState((current) =>
      current.status === 'loading' || (keepShown && current.status === 'ready') ? current : LOADING,
    );
    const controller = new AbortController();
    run(controller.signal).then(
      (data) => {
        if (!controller.signal.aborted) setState({ status: 'ready', data });
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setState({ status: 'error', error });
      },
    );
    return () => controller.abort();
    // The caller's deps decide when to load again; `run` always calls the latest `load`.
  }, [generation, ...deps]);

  const reload = useCallback(() => {
    reloading.current = true;
    setGeneration((g) => g + 1);
  }, []);
  return { ...state, reload };
}
