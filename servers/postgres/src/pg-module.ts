/**
 * The `pg` driver, loaded on first use rather than at startup: evaluating it costs a cold start
 * tens of milliseconds (on Node 20 its Cloudflare-runtime probe `new Response(…)` in
 * lib/stream.js loads the whole built-in undici), and a server that is only listed, or whose first
 * call is refused by the guard, never needs it. Startup needs only the connection-string resolver
 * (`pg/lib/connection-parameters`), which config.ts imports directly.
 */
import type pg from 'pg';

type Pg = typeof pg;

let loaded: Pg | undefined;
let loading: Promise<Pg> | undefined;

/** The driver, loading it once. */
export function loadPg(): Promise<Pg> {
  loading ??= import('pg').then((mod) => {
    loaded = (mod as { default?: Pg }).default ?? (mod as unknown as Pg);
    return loaded;
  });
  return loading;
}

/**
 * The driver when it is already loaded — for code that only runs on a connection (row parsers,
 * protocol steps). Throws if called before {@link loadPg} resolved (a bug, not a user error).
 */
export function loadedPg(): Pg {
  if (!loaded) throw new Error('pg used before it was loaded (call loadPg first)');
  return loaded;
}
