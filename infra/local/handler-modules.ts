import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The repository root: entries in the route table and registries are relative to it. */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

const loaded = new Map<string, Promise<unknown>>();

/**
 * Imports a Lambda entry module (`functions/http/tags/index.ts`, ...) on its first invocation, like a
 * cold start, and keeps its `handler` for the next ones. A module that fails to load is not cached, so
 * a file added or fixed while the local cloud runs is picked up by the next request.
 */
export const loadHandler = <H>(entry: string): Promise<H> => {
  let handler = loaded.get(entry);
  if (!handler) {
    handler = import(pathToFileURL(resolve(REPO_ROOT, entry)).href).then((mod: { handler?: unknown }) => {
      if (typeof mod.handler !== 'function') throw new Error(`${entry} does not export a handler function`);
      return mod.handler;
    });
    handler.catch(() => loaded.delete(entry));
    loaded.set(entry, handler);
  }
  return handler as Promise<H>;
};
