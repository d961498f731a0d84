// GitHub's OAuth device flow on the fake's web host (docs.github.com, "Authorizing OAuth apps →
// Device flow"): `POST /login/device/code` and `POST /login/oauth/access_token` with grant_type
// urn:ietf:params:oauth:grant-type:device_code. These are not in GitHub's REST OpenAPI description
// (they are github.com web endpoints, not api.github.com): they are root routes, which the spec
// check does not record; this file follows the documented fields and error codes instead. As
// GitHub does, errors come back as HTTP 200 with `{"error", "error_description", "error_uri"}`,
// a poll sooner than the interval gets `slow_down` and a 5 s longer interval, and an expired code
// `expired_token` (the timing check allows 50 ms of clock skew). The test plays the user on the verification page with approve()/deny().
import { randomBytes } from 'node:crypto';
import { type FakeReply, type FakeRequest, Reply } from '../../fake-api/index.js';
import type { GitHubState } from './state.js';

const GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
const DOCS = 'https://docs.github.com/developers/apps/authorizing-oauth-apps#error-codes-for-the-device-flow';

/** One device authorization the fake issued. */
export interface DeviceGrant {
  clientId: string;
  scope: string;
  deviceCode: string;
  userCode: string;
  /** Epoch ms after which polls get `expired_token`. */
  expiresAt: number;
  /** Current minimum seconds between polls (grows by 5 on each slow_down). */
  interval: number;
  /** Epoch ms of every poll, in order. */
  polls: number[];
  /** How many slow_down answers were sent. */
  slowDowns: number;
  /** Slow_downs still to send whatever the timing (a test forcing one). */
  forceSlowDowns: number;
  status: 'pending' | 'approved' | 'denied' | 'redeemed';
  /** The login that approved it. */
  login?: string;
  /** The token issued on redemption. */
  token?: string;
}

/** The fake's device-flow state and the user's side of it. */
export class FakeDeviceFlow {
  /** OAuth apps with the device flow enabled: client ids. */
  readonly clients = new Set<string>();
  readonly grants: DeviceGrant[] = [];
  /** `interval` answered to new grants, in seconds (GitHub: 5). */
  interval = 5;
  /** `expires_in` answered to new grants, in seconds (GitHub: 900). */
  expiresIn = 900;

  constructor(
    private readonly state: GitHubState,
    /** The web origin (the verification page's). */
    private readonly web: string,
  ) {}

  /** The grant with `userCode` (as the user types it). Throws when there is none. */
  grant(userCode: string): DeviceGrant {
    const grant = this.grants.find((g) => g.userCode === userCode.toUpperCase());
    if (!grant) throw new Error(`no device grant with user code ${userCode}`);
    return grant;
  }

  /** The user enters `userCode` on the verification page and authorizes the app as `login`. */
  approve(userCode: string, login: string): void {
    const grant = this.grant(userCode);
    if (!this.state.user(login)) throw new Error(`no user ${login}`);
    grant.status = 'approved';
    grant.login = login;
  }

  /** The user enters `userCode` and cancels the authorization. */
  deny(userCode: string): void {
    this.grant(userCode).status = 'denied';
  }

  /** POST /login/device/code. */
  code(req: FakeRequest): FakeReply {
    const form = formOf(req);
    const clientId = form.get('client_id') ?? '';
    if (!this.clients.has(clientId))
      return oauthError('device_flow_disabled', 'Device Flow must be explicitly enabled for this App');
    const userCode = `${letters(4)}-${letters(4)}`;
    const grant: DeviceGrant = {
      clientId,
      scope: form.get('scope') ?? '',
      deviceCode: randomBytes(20).toString('hex'),
      userCode,
      expiresAt: Date.now() + this.expiresIn * 1000,
      interval: this.interval,
      polls: [],
      slowDowns: 0,
      forceSlowDowns: 0,
      status: 'pending',
    };
    this.grants.push(grant);
    return {
      body: {
        device_code: grant.deviceCode,
        user_code: userCode,
        verification_uri: `${this.web}/login/device`,
        expires_in: this.expiresIn,
        interval: this.interval,
      },
    };
  }

  /** POST /login/oauth/access_token with the device_code grant. */
  token(req: FakeRequest): FakeReply {
    const form = formOf(req);
    if (form.get('grant_type') !== GRANT)
      return oauthError(
        'unsupported_grant_type',
        'The grant type must be urn:ietf:params:oauth:grant-type:device_code',
      );
    const grant = this.grants.find((g) => g.deviceCode === form.get('device_code'));
    if (!grant) return oauthError('incorrect_device_code', 'The device_code provided is not valid.');
    if (grant.clientId !== form.get('client_id'))
      return oauthError('incorrect_client_credentials', 'The client_id is incorrect.');
    const now = Date.now();
    const last = grant.polls.at(-1);
    grant.polls.push(now);
    if (grant.status === 'redeemed')
      return oauthError('bad_verification_code', 'The code passed is incorrect or expired.');
    if (now >= grant.expiresAt) return oauthError('expired_token', 'The device_code has expired.');
    if (grant.forceSlowDowns > 0 || (last !== undefined && now - last < grant.interval * 1000 - 50)) {
      grant.forceSlowDowns = Math.max(0, grant.forceSlowDowns - 1);
      grant.slowDowns++;
      grant.interval += 5;
      return oauthError('slow_down', 'Too many requests have been made in the same timeframe.', {
        interval: grant.interval,
      });
    }
    if (grant.status === 'denied')
      return oauthError('access_denied', 'The authorization request was denied.');
    if (grant.status === 'pending')
      return oauthError('authorization_pending', 'The authorization request is still pending.');
    const token = `gho_${randomBytes(18).toString('hex')}`;
    this.state.tokens.set(token, grant.login ?? '');
    grant.status = 'redeemed';
    grant.token = token;
    return {
      body: {
        access_token: token,
        token_type: 'bearer',
        scope: grant.scope.split(/\s+/).filter(Boolean).join(','),
      },
    };
  }
}

/** GitHub's device-flow error: HTTP 200 with the error fields. */
function oauthError(error: string, description: string, extra: Record<string, unknown> = {}): FakeReply {
  return { body: { error, error_description: description, error_uri: DOCS, ...extra } };
}

function formOf(req: FakeRequest): URLSearchParams {
  if ((req.headers['content-type'] ?? '').includes('application/json')) {
    try {
      return new URLSearchParams(JSON.parse(req.body) as Record<string, string>);
    } catch {
      throw new Reply({ status: 400, body: { error: 'invalid_request' } });
    }
  }
  return new URLSearchParams(req.body);
}

const ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';
function letters(n: number): string {
  return Array.from(randomBytes(n), (b) => ALPHABET[b % ALPHABET.length]).join('');
}
