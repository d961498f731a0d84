// Route patterns of the fake-API toolkit: "/repos/:owner/:repo/contents/*path" matched against a
// raw (still percent-encoded) request path, segment by segment.

/** Parameters a matched route captured, percent-decoded. */
export type RouteParams = Record<string, string>;

/** A compiled pattern: `match(rawPath)` → params, or undefined when it does not match. */
export interface RoutePattern {
  source: string;
  match(rawPath: string): RouteParams | undefined;
}

function decode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined; // malformed %-encoding never matches
  }
}

/**
 * Compiles `pattern`: literal segments match exactly (compared raw), `:name` matches one
 * non-empty segment, a final `*name` matches the rest (zero or more segments, joined by "/", each
 * decoded). Errors: throws for a `*` that is not the last segment.
 */
export function compileRoute(pattern: string): RoutePattern {
  const parts = pattern.split('/').slice(1);
  parts.forEach((p, i) => {
    if (p.startsWith('*') && i !== parts.length - 1) throw new Error(`route ${pattern}: "*" must be last`);
  });
  return {
    source: pattern,
    match(rawPath) {
      const segments = rawPath.split('/').slice(1);
      const params: RouteParams = {};
      for (let i = 0; i < parts.length; i++) {
        const part = parts[i] ?? '';
        if (part.startsWith('*')) {
          const rest = segments.slice(i).map(decode);
          if (rest.some((s) => s === undefined)) return undefined;
          params[part.slice(1)] = rest.join('/');
          return params;
        }
        const segment = segments[i];
        if (segment === undefined) return undefined;
        if (part.startsWith(':')) {
          const value = decode(segment);
          if (!value) return undefined;
          params[part.slice(1)] = value;
        } else if (part !== segment) return undefined;
      }
      return segments.length === parts.length ? params : undefined;
    },
  };
}
