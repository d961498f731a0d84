// The fake Drive itself: the state, the route wrapper every route shares (OAuth bearer tokens
// checked for existence, expiry and scope) and the staged answers Drive servers must survive
// (403 userRateLimitExceeded/rateLimitExceeded, 429). Routes are registered by start.ts; they
// import this file, never the barrel. The OAuth token endpoint is a route of the same fake.
import type { FakeApi, FakeRequest, RequestMatcher } from '../../fake-api/index.js';
import { FakeVendor } from '../../fake-api/index.js';
import { fail, googleError } from './errors.js';
import { type AccessToken, type DriveState, SCOPES } from './state.js';

/** A route handler of the fake: the request and the access token it carries (undefined on /token). */
export type DriveCaller = AccessToken | undefined;

/** Scopes that allow writes (everything but the read-only ones). */
const WRITE_SCOPES: string[] = [SCOPES.drive, SCOPES.file];
/** Scopes that allow reading content (metadata.readonly does not). */
const READ_SCOPES: string[] = [SCOPES.drive, SCOPES.file, SCOPES.readonly];

/** Options of {@link FakeDrive.rateLimit}. */
export interface RateLimitOptions {
  /** 403 `userRateLimitExceeded` (default), 403 `rateLimitExceeded`, or 429 `rateLimitExceeded`. */
  reason?: 'userRateLimitExceeded' | 'rateLimitExceeded';
  status?: 403 | 429;
  times?: number;
  match?: RequestMatcher;
  /** `Retry-After` seconds; absent by default (Drive seldom sends it). */
  retryAfter?: number;
}

/** The bearer token of `req` (Authorization header, or the `access_token` parameter). */
export function bearerOf(req: FakeRequest): string | undefined {
  const header = req.headers.authorization;
  if (header) return /^Bearer\s+(.+)$/i.exec(header)?.[1]?.trim();
  return req.query.get('access_token') ?? req.query.get('oauth_token') ?? undefined;
}

const INVALID_CREDENTIALS =
  'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.';

/**
 * Who `req` is: its access token. Throws Drive's 401 for a missing (`required`), unknown or
 * expired (`authError`) token. The token endpoint (`/token`) is anonymous.
 */
export function authenticate(state: DriveState, req: FakeRequest): DriveCaller {
  if (req.path === '/token') return undefined;
  const bearer = bearerOf(req);
  const headers = {
    'www-authenticate': 'Bearer realm="https://accounts.google.com/", error="invalid_token"',
  };
  if (!bearer)
    fail(401, 'required', 'Login Required', { location: 'Authorization', locationType: 'header', headers });
  const token = state.accessTokens.get(bearer);
  if (!token || token.expiresAt <= Date.now())
    fail(401, 'authError', INVALID_CREDENTIALS, {
      location: 'Authorization',
      locationType: 'header',
      headers,
    });
  return token;
}

/** A running fake Drive: `state`, `route()` with token checks, `rateLimit()`, the export-link host `docs`. */
export class FakeDrive extends FakeVendor<DriveCaller> {
  readonly state: DriveState;

  constructor(
    api: FakeApi,
    state: DriveState,
    /** The stand-in for docs.google.com that serves `exportLinks` (a plain fake, not Drive's API). */
    readonly docs: FakeApi,
    /** The stand-in for accounts.google.com's consent page (routes-consent.ts; a plain fake). */
    readonly accounts: FakeApi,
  ) {
    super(api, { authenticate: (req) => authenticate(state, req) });
    this.state = state;
  }

  /** The root URL a Drive client is given (`rootUrl`, `GDRIVE_API_URL`): `http://127.0.0.1:<port>/`. */
  get rootUrl(): string {
    return `${this.api.url}/`;
  }

  /** The token endpoint URL (`GOOGLE_OAUTH_TOKEN_URL`). */
  get tokenUrl(): string {
    return `${this.api.url}/token`;
  }

  /** Google's consent page (`GOOGLE_OAUTH_AUTH_URL`): `http://127.0.0.1:<port>/o/oauth2/v2/auth`. */
  get authUrl(): string {
    return `${this.accounts.url}/o/oauth2/v2/auth`;
  }

  /** Requests that reached the token endpoint. */
  get tokenRequests(): FakeRequest[] {
    return this.api.requestsMatching({ method: 'POST', path: '/token' });
  }

  /**
   * Makes `token` answer 401 `authError` from now on although its holder thinks it fresh (DR-01:
   * "a token that looks fresh but gets 401": one refresh, one retry).
   */
  expireAccessToken(token: string): this {
    const record = this.state.accessTokens.get(token);
    if (record) record.expiresAt = Date.now() - 1;
    return this;
  }

  /**
   * Stages Drive's rate-limit answers for the next `times` (default 1) matching requests: 403
   * `userRateLimitExceeded` by default, or `rateLimitExceeded` as 403 or 429 (recorded as faults).
   */
  rateLimit(options: RateLimitOptions = {}): this {
    const status = options.status ?? 403;
    const reason = options.reason ?? (status === 429 ? 'rateLimitExceeded' : 'userRateLimitExceeded');
    const message = reason === 'userRateLimitExceeded' ? 'User rate limit exceeded.' : 'Rate limit exceeded.';
    const reply = googleError(status, reason, message, { domain: 'usageLimits' });
    this.api.inject({
      status,
      body: reply.body,
      times: options.times ?? 1,
      ...(options.match ? { match: options.match } : {}),
      ...(options.retryAfter !== undefined ? { headers: { 'retry-after': String(options.retryAfter) } } : {}),
    });
    return this;
  }

  override async close(): Promise<void> {
    await Promise.all([super.close(), this.docs.close(), this.accounts.close()]);
  }
}

/** Throws Drive's 403 `insufficientPermissions` unless `who` may write. */
export function requireWrite(who: DriveCaller): void {
  if (who && !who.scopes.some((s) => WRITE_SCOPES.includes(s))) insufficient();
}

/** Throws Drive's 403 `insufficientPermissions` unless `who` may read content (not metadata-only). */
export function requireContent(who: DriveCaller): void {
  if (who && !who.scopes.some((s) => READ_SCOPES.includes(s))) insufficient();
}

function insufficient(): never {
  fail(403, 'insufficientPermissions', 'Request had insufficient authentication scopes.');
}
