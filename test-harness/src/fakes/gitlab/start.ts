// Starting the fake GitLab: the API on a free port, every route group registered.
import { startFakeApi } from '../../fake-api/index.js';
import { FakeGitLab, type FakeGitLabOptions } from './fake-gitlab.js';
import { glInvalid } from './http.js';
import { registerDiscussionRoutes } from './routes-discussions.js';
import { registerDraftNoteRoutes } from './routes-draft-notes.js';
import { registerGraphqlRoute } from './routes-graphql.js';
import { registerIssueRoutes } from './routes-issues.js';
import { registerLabelRoutes } from './routes-labels.js';
import { registerMergeRequestRoutes } from './routes-merge-requests.js';
import { registerPipelineRoutes } from './routes-pipelines.js';
import { registerProjectRoutes } from './routes-projects.js';
import { registerRepositoryRoutes } from './routes-repository.js';
import { registerSearchRoutes } from './routes-search.js';

/**
 * Starts a fake GitLab on 127.0.0.1 (free port) with every route registered and no data (seed it
 * with `seedScene` or `gl.state`). Requests no route matches — a raw `/` inside `:id` or
 * `:file_path` among them — get GitLab's router answer, 404 `{"error":"404 Not Found"}`. Its
 * REST traffic is recorded as vendor "gitlab" for the spec check (`gitlabSpec` in ./spec.ts);
 * GraphQL (POST …/api/graphql, a root route off that record) validates each query itself.
 */
export async function startFakeGitLab(options: FakeGitLabOptions = {}): Promise<FakeGitLab> {
  const prefix = options.prefix ?? '/api/v4';
  const api = await startFakeApi({
    prefix,
    vendor: 'gitlab',
    notFound: () => glInvalid('404 Not Found', 404),
  });
  const gl = new FakeGitLab(api, { ...options, prefix });
  registerProjectRoutes(gl);
  registerRepositoryRoutes(gl);
  registerIssueRoutes(gl);
  registerMergeRequestRoutes(gl);
  registerDiscussionRoutes(gl);
  registerDraftNoteRoutes(gl);
  registerPipelineRoutes(gl);
  registerLabelRoutes(gl);
  registerSearchRoutes(gl);
  registerGraphqlRoute(gl, prefix);
  // OAuth on the instance's web paths (root routes: outside /api/v4 and its OpenAPI; oauth.ts).
  const web = new URL(gl.web).pathname.replace(/\/+$/, '');
  gl.api.rootRoute('POST', `${web}/oauth/authorize_device`, (req) => gl.oauth.authorizeDevice(req));
  gl.api.rootRoute('POST', `${web}/oauth/token`, (req) => gl.oauth.token(req));
  return gl;
}
