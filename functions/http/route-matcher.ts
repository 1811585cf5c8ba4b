import { ROUTES, type HttpMethod, type RouteDef } from '../routes';

/** Every HTTP route is served under this base, on CloudFront and on the local gateway alike. */
export const API_BASE = '/api';

export type RouteMatch =
  | { kind: 'route'; route: RouteDef; pathParameters: Record<string, string> }
  | { kind: 'method-not-allowed'; allowed: HttpMethod[] }
  | { kind: 'not-found' };

interface CompiledRoute {
  route: RouteDef;
  regex: RegExp;
  names: string[];
}

const compile = (route: RouteDef): CompiledRoute => {
  const names: string[] = [];
  const pattern = route.path
    .split('/')
    .map((segment) => {
      const param = /^\{([A-Za-z0-9_]+)\}$/.exec(segment);
      if (param?.[1]) {
        names.push(param[1]);
        return '([^/]+)';
      }
      return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return { route, regex: new RegExp(`^${pattern}$`), names };
};

/** Removes the API base and one trailing slash: `/api/users/` -> `/users`. */
export const toRoutePath = (rawPath: string): string | null => {
  if (rawPath !== API_BASE && !rawPath.startsWith(`${API_BASE}/`)) return null;
  const path = rawPath.slice(API_BASE.length) || '/';
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
};

const decodeParameters = (names: string[], m: RegExpExecArray): Record<string, string> | null => {
  const pathParameters: Record<string, string> = {};
  try {
    names.forEach((name, i) => {
      pathParameters[name] = decodeURIComponent(m[i + 1] ?? '');
    });
  } catch {
    return null;
  }
  return pathParameters;
};

/**
 * Matches a request against a route table the way API Gateway does: static segments win over
 * parameters (`/users/list` before `/users/{id}`), then the method decides. A path that exists with
 * other methods answers 405 with the allowed ones.
 */
export const createRouteMatcher = (routes: readonly RouteDef[]) => {
  const compiled = routes
    .map(compile)
    .sort((a, b) => a.names.length - b.names.length || b.route.path.length - a.route.path.length);

  return (method: string, rawPath: string): RouteMatch => {
    const path = toRoutePath(rawPath);
    if (path === null) return { kind: 'not-found' };
    const allowed = new Set<HttpMethod>();
    for (const c of compiled) {
      const m = c.regex.exec(path);
      if (!m) continue;
      if (c.route.method === method.toUpperCase()) {
        const pathParameters = decodeParameters(c.names, m);
        // A malformed %-escape names nothing that can exist: the path matches no route (never a 500).
        if (!pathParameters) return { kind: 'not-found' };
        return { kind: 'route', route: c.route, pathParameters };
      }
      allowed.add(c.route.method);
    }
    return allowed.size > 0 ? { kind: 'method-not-allowed', allowed: [...allowed] } : { kind: 'not-found' };
  };
};

export const matchRoute = createRouteMatcher(ROUTES);
