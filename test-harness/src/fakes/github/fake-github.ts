// The fake GitHub itself: the state, the two origins (API and the blob storage job logs redirect
// to) and the route wrapper every route shares (token authentication, GitHub's response headers).
// Routes are registered by start.ts; they import this file, never the barrel.
import { type FakeApi, FakeVendor, type VendorHandler } from '../../fake-api/index.js';
import { FakeDeviceFlow } from './device-flow.js';
import { type Checked, checkGitHubQuery } from './graphql-schema.js';
import { authenticate } from './http.js';
import type { Urls } from './objects.js';
import { GitHubState } from './state.js';

export interface FakeGitHubOptions {
  /** API path prefix; default "/api/v3" (GitHub Enterprise layout). */
  prefix?: string;
  /** x-oauth-scopes sent to authenticated requests; default "repo, read:org". */
  scopes?: string;
}

/** A route handler of the fake: the request and the authenticated login (undefined = anonymous). */
export type GitHubHandler = VendorHandler<string | undefined>;

/** The headers GitHub sends with every REST reply (API version, media type, rate limit, scopes). */
function githubHeaders(who: string | undefined, scopes: string): Record<string, string> {
  const reset = String(Math.floor(Date.now() / 1000) + 3600);
  return {
    'x-github-api-version-selected': '2022-11-28',
    'x-github-media-type': 'github.v3; format=json',
    'x-ratelimit-limit': who ? '5000' : '60',
    'x-ratelimit-remaining': who ? '4999' : '59',
    'x-ratelimit-used': '1',
    'x-ratelimit-reset': reset,
    'x-ratelimit-resource': 'core',
    ...(who ? { 'x-oauth-scopes': scopes, 'x-accepted-oauth-scopes': 'repo' } : {}),
  };
}

/**
 * A running fake GitHub: `route(method, pattern, (req, who) => reply)` registers a route with
 * authentication (who = the login, undefined for anonymous), GitHub headers and thrown replies.
 */
export class FakeGitHub extends FakeVendor<string | undefined> {
  readonly state: GitHubState;
  readonly urls: Urls;
  scopes: string;
  /** GraphQL queries refused by the schema check (routes-graphql.ts), with graphql-js's messages. */
  readonly graphqlRejected: { query: string; errors: string[] }[] = [];
  /** The OAuth device flow on the web host (device-flow.ts): enable a client id, approve or deny codes. */
  readonly device: FakeDeviceFlow;

  constructor(
    api: FakeApi,
    /** The second origin job logs are downloaded from (as GitHub redirects to blob storage). */
    readonly storage: FakeApi,
    options: FakeGitHubOptions,
    state = new GitHubState(),
  ) {
    super(api, {
      authenticate: (req) => authenticate(state, req),
      headers: (_req, who) => githubHeaders(who, this.scopes),
    });
    this.state = state;
    this.urls = {
      api: api.url,
      web: api.url.slice(0, api.url.length - (options.prefix ?? '/api/v3').length),
    };
    this.scopes = options.scopes ?? 'repo, read:org';
    this.device = new FakeDeviceFlow(state, this.urls.web);
  }

  /** Parses and validates a GraphQL query against GitHub's public schema (what the endpoint does first). */
  checkQuery(query: string): Checked {
    return checkGitHubQuery(query);
  }

  override async close(): Promise<void> {
    await Promise.all([this.api.close(), this.storage.close()]);
  }
}
