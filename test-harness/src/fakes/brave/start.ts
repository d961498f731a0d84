// Starting the fake Brave: the Search API on a free port under /res/v1, every route registered.
import { startFakeApi } from '../../fake-api/index.js';
import { braveError, FakeBrave } from './fake-brave.js';
import { registerBraveRoutes } from './routes.js';

/**
 * Starts a fake Brave Search API on 127.0.0.1 (free port) under /res/v1 with the free plan
 * (1 request a second, enforced) and generated results for any query. Point servers at
 * `brave.apiUrl` with BRAVE_API_KEY=BRAVE_KEY. Its traffic is recorded as vendor "brave" for the
 * spec check (`braveSpec` in ./spec.ts).
 */
export async function startFakeBrave(): Promise<FakeBrave> {
  const api = await startFakeApi({
    prefix: '/res/v1',
    vendor: 'brave',
    notFound: () => braveError(404, 'NOT_FOUND', 'Resource not found.'),
  });
  const brave = new FakeBrave(api);
  registerBraveRoutes(brave);
  return brave;
}
