// Starting the fake GitHub: both origins on free ports, every route group registered.
import { startFakeApi } from '../../fake-api/index.js';
import { FakeGitHub, type FakeGitHubOptions } from './fake-github.js';
import { ghError } from './http.js';
import { registerActionsRoutes } from './routes-actions.js';
import { registerCheckRoutes } from './routes-checks.js';
import { registerContentsRoutes } from './routes-contents.js';
import { registerGitRoutes } from './routes-git.js';
import { registerGraphqlRoute } from './routes-graphql.js';
import { registerIssueRoutes } from './routes-issues.js';
import { registerLabelRoutes } from './routes-labels.js';
import { registerPullRoutes } from './routes-pulls.js';
import { registerRepoRoutes } from './routes-repos.js';
import { registerSearchRoutes } from './routes-search.js';
import { registerSubIssueRoutes } from './routes-sub-issues.js';

/**
 * Starts a fake GitHub on 127.0.0.1 (free ports) with every route registered and no data. Its
 * API traffic is recorded as vendor "github" for the spec check (spec/README in test-harness).
 */
export async function startFakeGitHub(options: FakeGitHubOptions = {}): Promise<FakeGitHub> {
  const prefix = options.prefix ?? '/api/v3';
  const api = await startFakeApi({ prefix, vendor: 'github', notFound: () => ghError(404, 'Not Found') });
  const storage = await startFakeApi();
  const gh = new FakeGitHub(api, storage, { ...options, prefix });
  registerRepoRoutes(gh);
  registerContentsRoutes(gh);
  registerGitRoutes(gh);
  registerIssueRoutes(gh);
  registerLabelRoutes(gh);
  registerSubIssueRoutes(gh);
  registerPullRoutes(gh);
  registerSearchRoutes(gh);
  registerActionsRoutes(gh);
  registerCheckRoutes(gh);
  registerGraphqlRoute(gh, prefix);
  // GitHub's OAuth device flow on the web host (root routes: outside /api/v3; device-flow.ts).
  const web = new URL(gh.urls.web).pathname.replace(/\/+$/, '');
  gh.api.rootRoute('POST', `${web}/login/device/code`, (req) => gh.device.code(req));
  gh.api.rootRoute('POST', `${web}/login/oauth/access_token`, (req) => gh.device.token(req));
  return gh;
}
