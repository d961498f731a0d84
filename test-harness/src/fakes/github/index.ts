// A fake GitHub REST API for the GitHub server's tests, demo and bench: an in-memory GitHub
// (users, tokens, repositories with real git objects, issues, pull requests, reviews, statuses,
// releases, Actions) served over HTTP on 127.0.0.1 by the harness's fake-API toolkit, under the
// GHE-style prefix /api/v3. Every route exists in GitHub's OpenAPI description and its bodies
// validate against it (openapi.test.ts). Job logs redirect to a second origin, as GitHub's do.
import { type FakeApi, type FakeReply, type FakeRequest, startFakeApi } from '../../fake-api/index.js';
import { authenticate, ghError, Reply } from './http.js';
import type { Urls } from './objects.js';
import { registerActionsRoutes } from './routes-actions.js';
import { registerContentsRoutes } from './routes-contents.js';
import { registerGitRoutes } from './routes-git.js';
import { registerIssueRoutes } from './routes-issues.js';
import { registerPullRoutes } from './routes-pulls.js';
import { registerRepoRoutes } from './routes-repos.js';
import { registerSearchRoutes } from './routes-search.js';
import { GitHubState } from './state.js';

export type { IssueRecord, RepoRecord } from './state.js';
export { GitHubState } from './state.js';

/** A route handler of the fake: the request and the authenticated login (undefined = anonymous). */
export type GitHubHandler = (req: FakeRequest, who: string | undefined) => FakeReply | Promise<FakeReply>;

export interface FakeGitHubOptions {
  /** API path prefix; default "/api/v3" (GitHub Enterprise layout). */
  prefix?: string;
  /** x-oauth-scopes sent to authenticated requests; default "repo, read:org". */
  scopes?: string;
}

/** A running fake GitHub. */
export class FakeGitHub {
  readonly state = new GitHubState();
  /** Routes registered, as [METHOD, pattern] with OpenAPI-style `{param}` names. */
  readonly routes: Array<[string, string]> = [];
  readonly urls: Urls;
  scopes: string;

  constructor(
    /** The API server (requests, faults, latency: see the toolkit's FakeApi). */
    readonly api: FakeApi,
    /** The second origin job logs are downloaded from (as GitHub redirects to blob storage). */
    readonly storage: FakeApi,
    options: FakeGitHubOptions,
  ) {
    this.urls = {
      api: api.url,
      web: api.url.slice(0, api.url.length - (options.prefix ?? '/api/v3').length),
    };
    this.scopes = options.scopes ?? 'repo, read:org';
  }

  /** GITHUB_API_URL for the server under test. */
  get url(): string {
    return this.api.url;
  }

  /** Registers a route with authentication, GitHub headers and Reply handling. */
  route(method: string, pattern: string, handler: GitHubHandler): void {
    this.routes.push([method, pattern.replace(/[:*](\w+)/g, '{$1}')]);
    this.api.route(method, pattern, async (req) => {
      let reply: FakeReply;
      let who: string | undefined;
      try {
        who = authenticate(this.state, req);
        reply = await handler(req, who);
      } catch (error) {
        if (!(error instanceof Reply)) throw error;
        reply = error.reply;
      }
      return { ...reply, headers: { ...this.headers(who), ...reply.headers } };
    });
  }

  private headers(who: string | undefined): Record<string, string> {
    const reset = String(Math.floor(Date.now() / 1000) + 3600);
    return {
      'x-github-api-version-selected': '2022-11-28',
      'x-github-media-type': 'github.v3; format=json',
      'x-ratelimit-limit': who ? '5000' : '60',
      'x-ratelimit-remaining': who ? '4999' : '59',
      'x-ratelimit-used': '1',
      'x-ratelimit-reset': reset,
      'x-ratelimit-resource': 'core',
      ...(who ? { 'x-oauth-scopes': this.scopes, 'x-accepted-oauth-scopes': 'repo' } : {}),
    };
  }

  async close(): Promise<void> {
    await Promise.all([this.api.close(), this.storage.close()]);
  }
}

/** Starts a fake GitHub on 127.0.0.1 (free ports) with every route registered and no data. */
export async function startFakeGitHub(options: FakeGitHubOptions = {}): Promise<FakeGitHub> {
  const prefix = options.prefix ?? '/api/v3';
  const api = await startFakeApi({ prefix, notFound: () => ghError(404, 'Not Found') });
  const storage = await startFakeApi();
  const gh = new FakeGitHub(api, storage, { ...options, prefix });
  registerRepoRoutes(gh);
  registerContentsRoutes(gh);
  registerGitRoutes(gh);
  registerIssueRoutes(gh);
  registerPullRoutes(gh);
  registerSearchRoutes(gh);
  registerActionsRoutes(gh);
  return gh;
}
export * from './seed.js';
