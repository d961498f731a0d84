/**
 * The search server's own test fixtures: a fake Brave on 127.0.0.1 and the built server connected
 * to it over stdio (BRAVE_API_URL pointing at the fake; no test reaches api.search.brave.com).
 */
import { type Era, startBuiltServer } from '@refmcp/test-harness';
import { BRAVE_KEY, type FakeBrave, startFakeBrave } from '@refmcp/test-harness/fakes/brave';

export { BRAVE_KEY };

/** A fresh fake Brave with the free plan (1 request a second, enforced). */
export function startBrave(): Promise<FakeBrave> {
  return startFakeBrave();
}

/** The environment that points the server at `brave` with the scene's key. */
export const braveEnv = (brave: FakeBrave) => ({ BRAVE_API_URL: brave.apiUrl, BRAVE_API_KEY: BRAVE_KEY });

/** Spawns the built server against `brave` with `args`; `env` overrides (e.g. no key). */
export function startServer(
  brave: FakeBrave | undefined,
  args: string[] = [],
  opts: { env?: Record<string, string>; era?: Era } = {},
) {
  return startBuiltServer('search', args, {
    env: { ...(brave ? braveEnv(brave) : {}), ...opts.env },
    era: opts.era ?? 'legacy',
  });
}
