/**
 * The GitLab REST v4 client: the shared HttpClient (one policy: timeouts, retries honouring
 * Retry-After/RateLimit-Reset within the budget, never a write repeated after a 5xx, pacing) with
 * GITLAB_HOOKS and the credentials: a personal access token as PRIVATE-TOKEN, or an OAuth token
 * from a sign-in read per request from a {@link TokenProvider} as `Authorization: Bearer` (a 401
 * refreshes it once and resends). Adds what GitLab callers need: page-numbered lists
 * that say when more exists (Link header, else X-Next-Page), what to do about a 401 or 403, and
 * GraphQL operations (`graphql`: POST <instance>/api/graphql with the same token, policy and size
 * cap, for what only GraphQL reaches — work items since GitLab 17.2).
 */
import {
  GITLAB_HOOKS,
  HttpClient,
  HttpError,
  type HttpPolicy,
  type HttpRequest,
  type HttpResponse,
  linkPageInfo,
  type Page,
  ToolError,
} from '@refmcp/shared';

/**
 * Where the OAuth token of a sign-in comes from (auth/session.ts): read at every request, so a
 * refreshed or new sign-in's token is used at once.
 */
export interface TokenProvider {
  /** The access token to send now, or undefined (not signed in). Errors: ToolError (refresh refused). */
  token(signal?: AbortSignal): Promise<string | undefined>;
  /** GitLab refused `token` with a 401: true when a new token can be sent (refreshed). */
  refused(token: string, signal?: AbortSignal): Promise<boolean>;
}

/** The 401 hint when the token came from a sign-in. */
const SIGNED_IN_REFUSED =
  'GitLab refused the signed-in token and it could not be refreshed (revoked or expired): call the tool again to sign in again.';

export interface GitLabOptions {
  baseUrl: URL;
  /** A personal access token (PRIVATE-TOKEN). */
  token?: string;
  /** Sign-in tokens (Authorization: Bearer), when no `token`. */
  auth?: TokenProvider;
  /** The scrub list, shared with `auth` (it adds its tokens); default a new one. */
  secrets?: string[];
  userAgent: string;
  policy: HttpPolicy;
  maxResponseBytes: number;
}

/** Longest GraphQL error text kept in a message (GitLab echoes parts of the query). */
const GRAPHQL_ERROR_CHARS = 500;

/**
 * The base the GraphQL endpoint hangs off: the REST base without its trailing `/v4`
 * (https://HOST[/PATH]/api/v4 → https://HOST[/PATH]/api, so `/graphql` is GitLab's /api/graphql;
 * https://docs.gitlab.com/api/graphql/#graphql-api-endpoint).
 */
export function graphqlBase(restBase: URL): URL {
  const url = new URL(restBase.href);
  url.pathname = url.pathname.replace(/\/+$/, '').replace(/\/v4$/, '');
  return url;
}

/**
 * Whether a GraphQL document holds a mutation: an operation line starting with `mutation` (comments
 * removed). Anything else (`query …`, a `{ … }` shorthand) is a query, a read (GraphQL spec §2.3).
 */
export function isMutation(document: string): boolean {
  return /^\s*mutation\b/m.test(document.replace(/#[^\n]*/g, ''));
}

export class GitLab {
  private readonly http: HttpClient;
  private readonly gql: HttpClient;
  /** Query objects of list requests sent with `paced: false` (not search-paced; see {@link list}). */
  private readonly unpaced = new WeakSet<object>();
  private readonly token?: string;
  private readonly auth?: TokenProvider;
  /** Every credential this client has sent (scrubbed from errors and logs). */
  readonly secrets: string[];

  constructor(options: GitLabOptions) {
    this.token = options.token;
    this.auth = options.auth;
    this.secrets = options.secrets ?? [];
    if (options.token && !this.secrets.includes(options.token)) this.secrets.push(options.token);
    const headers: Record<string, string> = options.token ? { 'private-token': options.token } : {};
    const common = {
      userAgent: options.userAgent,
      headers,
      credentialHeaders: ['private-token', 'authorization'],
      policy: options.policy,
      maxResponseBytes: options.maxResponseBytes,
      hooks: GITLAB_HOOKS,
      secrets: this.secrets,
    };
    this.http = new HttpClient({
      service: 'GitLab API',
      baseUrl: options.baseUrl,
      ...common,
      isSearch: (path, query) => !(query && this.unpaced.has(query)) && isSearchRequest(path, query),
    });
    this.gql = new HttpClient({
      service: 'GitLab GraphQL API',
      baseUrl: graphqlBase(options.baseUrl),
      ...common,
      isSearch: () => false,
    });
  }

  /**
   * One GraphQL operation (POST /api/graphql, `{query, variables}`): the answer's `data`. A query
   * is a read although it is a POST: retried on 5xx and failures as a GET is, not write-paced. A
   * mutation (the document has a `mutation` operation) is a write: paced, a 5xx never retried, and
   * its failure says the outcome is unknown. Errors: as {@link request}; a ToolError with GitLab's
   * messages when the answer carries `errors` (GitLab answers 200 with `{"errors": [...]}` for an
   * invalid query, a missing or hidden resource, a refused mutation).
   */
  async graphql<T>(query: string, variables: Record<string, unknown>, signal: AbortSignal): Promise<T> {
    const res = await this.call<{ data?: T | null; errors?: Array<{ message?: unknown }> }>(this.gql, {
      method: 'POST',
      path: '/graphql',
      body: { query, variables },
      read: !isMutation(query),
      signal,
    });
    const errors = (res.data?.errors ?? []).map((e) => String(e?.message ?? 'unknown error'));
    if (errors.length || !res.data?.data) {
      const text = errors.join('; ').slice(0, GRAPHQL_ERROR_CHARS) || 'no data in the answer';
      throw new ToolError(`GitLab GraphQL API: ${text}`);
    }
    return res.data.data;
  }

  /**
   * One request (see HttpClient.request: a write whose outcome is unknown says so). Errors:
   * HttpError (summary with GitLab's message), with a sentence on what to do for 401/403.
   */
  request<T = unknown>(req: HttpRequest): Promise<HttpResponse<T>> {
    return this.call<T>(this.http, req);
  }

  /** True when a personal access token is configured (a sign-in's token is not counted). */
  get authenticated(): boolean {
    return this.token !== undefined;
  }

  /** Sends `req` with the sign-in's current token (if any); a 401 refreshes it once and resends. */
  private async send<T>(http: HttpClient, req: HttpRequest): Promise<HttpResponse<T>> {
    const bearer = await this.auth?.token(req.signal);
    const withToken = (token: string): HttpRequest => ({
      ...req,
      headers: { ...req.headers, authorization: `Bearer ${token}` },
    });
    if (!bearer) return http.request<T>(req);
    try {
      return await http.request<T>(withToken(bearer));
    } catch (error) {
      if (!isStatus(error, 401) || !(await this.auth?.refused(bearer, req.signal))) throw error;
      const fresh = await this.auth?.token(req.signal);
      if (!fresh) throw error;
      return http.request<T>(withToken(fresh));
    }
  }

  private async call<T>(http: HttpClient, req: HttpRequest): Promise<HttpResponse<T>> {
    try {
      return await this.send<T>(http, req);
    } catch (error) {
      if (!(error instanceof ToolError)) throw error;
      const hints: string[] = [];
      const status = error instanceof HttpError ? error.status : undefined;
      if (status === 401)
        hints.push(
          this.auth
            ? SIGNED_IN_REFUSED
            : this.authenticated
              ? 'Check GITLAB_PERSONAL_ACCESS_TOKEN (expired, revoked or mistyped).'
              : 'No token is configured: set GITLAB_PERSONAL_ACCESS_TOKEN.',
        );
      if (status === 403) hints.push('The token needs the api scope for writes (read_api for reads).');
      if (!hints.length) throw error;
      const wrapped =
        error instanceof HttpError
          ? new HttpError(`${error.message} ${hints.join(' ')}`, error.status, error.retryAt, error.reason)
          : new ToolError(`${error.message} ${hints.join(' ')}`);
      throw wrapped;
    }
  }

  /** GET `path` and the JSON body. */
  async get<T = unknown>(path: string, query: HttpRequest['query'], signal: AbortSignal): Promise<T> {
    return (await this.request<T>({ path, ...(query ? { query } : {}), signal })).data;
  }

  /** A write (POST/PUT/DELETE) with a JSON body; resolves with the JSON answer (null-tolerant). */
  async write<T = unknown>(method: string, path: string, body: unknown, signal: AbortSignal): Promise<T> {
    return (await this.request<T>({ method, path, body, signal })).data;
  }

  /**
   * One page of a page-numbered list: `hasMore` from the Link header's rel="next", else from
   * X-Next-Page (GitLab leaves out totals for big lists but keeps both). `paced: false` sends a
   * search without waiting for --search-interval: for a search retried in another mode right
   * after GitLab refused the first ("not available", a 400 that searched nothing), so the retry
   * rides the slot the refused probe took.
   */
  async list<T = unknown>(
    path: string,
    query: HttpRequest['query'],
    page: number,
    perPage: number,
    signal: AbortSignal,
    options: { paced?: boolean } = {},
  ): Promise<Page<T>> {
    const q = { ...query, page, per_page: perPage };
    if (options.paced === false) this.unpaced.add(q);
    const res = await this.request<unknown>({ path, query: q, signal });
    const info = linkPageInfo(res.headers.get('link'), page, perPage);
    const next = Number(res.headers.get('x-next-page') ?? '');
    if (!info.hasMore && Number.isSafeInteger(next) && next > page) {
      info.hasMore = true;
      info.nextPage = next;
    }
    const last = Number(res.headers.get('x-total-pages') ?? '');
    if (!info.lastPage && Number.isSafeInteger(last) && last > 0) info.lastPage = last;
    return { items: Array.isArray(res.data) ? (res.data as T[]) : [], info };
  }
}

/**
 * The requests --search-interval paces: the search API (`/search`, `/groups/:id/search`,
 * `/projects/:id/search`) and project search (`GET /projects?search=…`, what search_repositories
 * sends), so that a model's burst of searches is spread out like any other search.
 */
export function isSearchRequest(path: string, query: HttpRequest['query']): boolean {
  if (path === '/search' || /^\/(groups|projects)\/[^/]+\/search$/.test(path)) return true;
  return path === '/projects' && typeof query?.search === 'string' && query.search !== '';
}

/** True when `error` is GitLab's answer with `status`. */
export function isStatus(error: unknown, status: number): boolean {
  return error instanceof HttpError && error.status === status;
}
