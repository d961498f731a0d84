// GitLab's OAuth device authorization grant and token refresh on the fake instance (GitLab 17.1+,
// docs.gitlab.com "OAuth 2.0 identity provider API → Device authorization grant flow"; Doorkeeper's
// device grant): `POST /oauth/authorize_device` (client_id, scope → device_code, user_code,
// verification_uri, verification_uri_complete, expires_in, interval) and `POST /oauth/token` with
// grant_type urn:ietf:params:oauth:grant-type:device_code or refresh_token. These are web routes
// of the instance, not in GitLab's REST OpenAPI description (which covers /api/v4 only): they are
// root routes, which the spec check does not record; this file follows the documented fields and
// RFC 6749/8628 errors instead (HTTP 400 or 401 with `{"error", "error_description"}`). Access
// tokens expire after `tokenLifetime` seconds (GitLab: 7200) and are then refused with 401
// invalid_token (http.ts); a refresh rotates the refresh token (the old one stops working). The
// test plays the user on /oauth/device with approve()/deny().
import { randomBytes } from 'node:crypto';
import type { FakeReply, FakeRequest } from '../../fake-api/index.js';
import type { GitLabState } from './state.js';

const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

/** One device authorization the fake issued. */
export interface GitLabDeviceGrant {
  clientId: string;
  scope: string;
  deviceCode: string;
  userCode: string;
  /** Epoch ms after which polls get `expired_token`. */
  expiresAt: number;
  /** Epoch ms of every poll, in order. */
  polls: number[];
  status: 'pending' | 'approved' | 'denied' | 'redeemed';
  /** The username that approved it. */
  username?: string;
  /** The access token issued on redemption (the latest after refreshes). */
  token?: string;
}

/** The fake instance's OAuth state and the user's side of it. */
export class FakeGitLabOAuth {
  /** OAuth applications (non-confidential, device grant allowed): client ids. */
  readonly clients = new Set<string>();
  readonly grants: GitLabDeviceGrant[] = [];
  /** Live refresh tokens → the grant and user they belong to. */
  readonly refreshTokens = new Map<string, { grant: GitLabDeviceGrant; userId: number; scope: string }>();
  /** How many refresh_token grants succeeded. */
  refreshes = 0;
  /** `interval` answered to new grants, in seconds (GitLab: 5). */
  interval = 5;
  /** `expires_in` of new device codes, in seconds (GitLab: 300). */
  expiresIn = 300;
  /** Lifetime of issued access tokens, in seconds (GitLab: 7200). */
  tokenLifetime = 7200;

  constructor(
    private readonly state: GitLabState,
    /** The instance's web base (the verification page's). */
    private readonly web: string,
  ) {}

  /** The grant with `userCode`. Throws when there is none. */
  grant(userCode: string): GitLabDeviceGrant {
    const grant = this.grants.find((g) => g.userCode === userCode.toUpperCase());
    if (!grant) throw new Error(`no device grant with user code ${userCode}`);
    return grant;
  }

  /** The user opens the verification page, enters `userCode` and authorizes the app as `username`. */
  approve(userCode: string, username: string): void {
    const grant = this.grant(userCode);
    this.state.userId(username);
    grant.status = 'approved';
    grant.username = username;
  }

  /** The user enters `userCode` and denies the authorization. */
  deny(userCode: string): void {
    this.grant(userCode).status = 'denied';
  }

  /** Makes the access token of `userCode`'s grant expired now (as 2 h passing would). */
  expire(userCode: string): void {
    const record = this.state.tokens.get(this.grant(userCode).token ?? '');
    if (record) record.expiresAt = Date.now() - 1;
  }

  /** POST /oauth/authorize_device. */
  authorizeDevice(req: FakeRequest): FakeReply {
    const form = new URLSearchParams(req.body);
    const clientId = form.get('client_id') ?? '';
    if (!this.clients.has(clientId))
      return oauthError(
        'invalid_client',
        'Client authentication failed due to unknown client, no client authentication included, or unsupported authentication method.',
        401,
      );
    const scope = form.get('scope') ?? '';
    if (!scope.split(/\s+/).every((s) => ['api', 'read_api', 'read_user', ''].includes(s)))
      return oauthError('invalid_scope', 'The requested scope is invalid, unknown, or malformed.');
    const userCode = letters(8);
    const grant: GitLabDeviceGrant = {
      clientId,
      scope,
      deviceCode: randomBytes(20).toString('hex'),
      userCode,
      expiresAt: Date.now() + this.expiresIn * 1000,
      polls: [],
      status: 'pending',
    };
    this.grants.push(grant);
    return {
      body: {
        device_code: grant.deviceCode,
        user_code: userCode,
        verification_uri: `${this.web}/oauth/device`,
        verification_uri_complete: `${this.web}/oauth/device?user_code=${userCode}`,
        expires_in: this.expiresIn,
        interval: this.interval,
      },
    };
  }

  /** POST /oauth/token: the device_code and refresh_token grants. */
  token(req: FakeRequest): FakeReply {
    const form = new URLSearchParams(req.body);
    const grantType = form.get('grant_type');
    if (grantType === 'refresh_token') return this.refresh(form);
    if (grantType !== DEVICE_GRANT)
      return oauthError('unsupported_grant_type', 'The authorization grant type is not supported.');
    const grant = this.grants.find((g) => g.deviceCode === form.get('device_code'));
    if (!grant || grant.clientId !== form.get('client_id'))
      return oauthError('invalid_grant', 'The provided authorization grant is invalid.');
    const now = Date.now();
    grant.polls.push(now);
    if (grant.status === 'redeemed')
      return oauthError('invalid_grant', 'The provided authorization grant is invalid.');
    if (now >= grant.expiresAt) return oauthError('expired_token', 'The device code has expired.');
    if (grant.status === 'denied')
      return oauthError('access_denied', 'The resource owner or authorization server denied the request.');
    if (grant.status === 'pending')
      return oauthError('authorization_pending', 'The authorization request is still pending.');
    grant.status = 'redeemed';
    return this.issue(grant, this.state.userId(grant.username ?? ''), grant.scope);
  }

  private refresh(form: URLSearchParams): FakeReply {
    const entry = this.refreshTokens.get(form.get('refresh_token') ?? '');
    if (!entry || entry.grant.clientId !== form.get('client_id'))
      return oauthError('invalid_grant', 'The provided authorization grant is invalid.');
    this.refreshTokens.delete(form.get('refresh_token') ?? '');
    this.state.tokens.delete(entry.grant.token ?? '');
    this.refreshes++;
    return this.issue(entry.grant, entry.userId, entry.scope);
  }

  private issue(grant: GitLabDeviceGrant, userId: number, scope: string): FakeReply {
    const token = randomBytes(32).toString('hex');
    const refresh = randomBytes(32).toString('hex');
    const scopes = scope.split(/\s+/).filter(Boolean);
    this.state.tokens.set(token, { userId, scopes, expiresAt: Date.now() + this.tokenLifetime * 1000 });
    this.refreshTokens.set(refresh, { grant, userId, scope });
    grant.token = token;
    return {
      body: {
        access_token: token,
        token_type: 'Bearer',
        expires_in: this.tokenLifetime,
        refresh_token: refresh,
        scope: scopes.join(' '),
        created_at: Math.floor(Date.now() / 1000),
      },
    };
  }
}

/** An OAuth error (RFC 6749 §5.2): HTTP 400 (401 for a client failure) with the error fields. */
function oauthError(error: string, description: string, status = 400): FakeReply {
  return { status, body: { error, error_description: description } };
}

const ALPHABET = '0123456789ABCDEFGHJKLMNPQRSTUVWXYZ';
function letters(n: number): string {
  return Array.from(randomBytes(n), (b) => ALPHABET[b % ALPHABET.length]).join('');
}
