/**
 * The OAuth 2.0 Device Authorization Grant (RFC 8628), client side: {@link requestDeviceCode}
 * asks the vendor for a user code (§3.1–3.2), {@link pollDeviceToken} polls its token endpoint
 * until the user approves or refuses (§3.4–3.5). No client secret and no redirect: the server
 * never has to be reachable from the user's browser. Vendor endpoints are the caller's (GitHub:
 * `/login/device/code` and `/login/oauth/access_token`; GitLab: `/oauth/authorize_device` and
 * `/oauth/token`).
 *
 * Not @octokit/auth-oauth-device: after a `slow_down` it waits `interval + 7` s once and then
 * polls at the old interval again (RFC 8628 §3.5 says the interval grows by 5 s for all later
 * requests), cannot be cancelled (its waits take no signal), and is GitHub-only.
 */
import { sanitizeUntrusted } from '../untrusted/sanitize.js';
import { sleep } from './pacer.js';

/** The device authorization response (RFC 8628 §3.2). Times in seconds. */
export interface DeviceCode {
  device_code: string;
  user_code: string;
  verification_uri: string;
  /** Optional in the RFC; GitHub does not send it. */
  verification_uri_complete?: string;
  /** Lifetime of the codes, in seconds. */
  expires_in: number;
  /** Minimum seconds between polls; 5 when the vendor sends none (§3.2). */
  interval: number;
}

/** A token response (RFC 6749 §5.1). */
export interface DeviceToken {
  access_token: string;
  token_type?: string;
  scope?: string;
  refresh_token?: string;
  expires_in?: number;
}

/** The flow ended without a token: `code` is the RFC 8628 §3.5 error (or `timeout`, `invalid_response`). */
export class DeviceFlowError extends Error {
  override name = 'DeviceFlowError';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Options shared by both requests. */
export interface DeviceFlowRequest {
  clientId: string;
  /** Per-request timeout, in milliseconds. */
  timeoutMs: number;
  signal?: AbortSignal;
  /** The `fetch` to use (default the global one). */
  fetch?: typeof fetch;
  /** User-Agent header. */
  userAgent?: string;
}

/** The most of a response body read, in bytes (a device-flow answer is a few hundred). */
export const MAX_RESPONSE_BYTES = 64 * 1024;

/** The first `max` bytes of `response`'s body as UTF-8; the rest is never read (the stream is cancelled). */
async function readCapped(response: Response, max: number): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < max) {
      const { done, value } = await reader.read();
      if (done) break;
      const part = value.subarray(0, max - size);
      chunks.push(part);
      size += part.length;
    }
  } finally {
    reader.cancel().catch(() => {});
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * POSTs `form` to `url` (form-encoded, JSON accepted); the parsed object and the status. Redirects
 * are refused (`redirect: 'error'`: a token endpoint has no reason to send one, and following it
 * would repost the device code elsewhere); at most {@link MAX_RESPONSE_BYTES} of the body are read.
 */
async function post(
  url: string,
  form: Record<string, string>,
  req: DeviceFlowRequest,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const signals = [AbortSignal.timeout(req.timeoutMs), ...(req.signal ? [req.signal] : [])];
  const response = await (req.fetch ?? fetch)(url, {
    method: 'POST',
    headers: {
      accept: 'application/json',
      'content-type': 'application/x-www-form-urlencoded',
      ...(req.userAgent ? { 'user-agent': req.userAgent } : {}),
    },
    body: new URLSearchParams(form).toString(),
    redirect: 'error',
    signal: AbortSignal.any(signals),
  });
  const text = await readCapped(response, MAX_RESPONSE_BYTES);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (!body || typeof body !== 'object' || Array.isArray(body))
    throw new DeviceFlowError(
      'invalid_response',
      `${new URL(url).host} answered HTTP ${response.status} without a JSON object`,
    );
  return { status: response.status, body: body as Record<string, unknown> };
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);
const num = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined;

/** The longest vendor error code and description kept, in characters. */
export const MAX_VENDOR_TEXT = 300;

/** Vendor text made safe for a message: hidden and control characters neutralised, length capped. */
function vendorText(text: string): string {
  const clean = sanitizeUntrusted(text, { markup: false }).text.replace(/\s+/g, ' ').trim();
  return clean.length > MAX_VENDOR_TEXT ? `${clean.slice(0, MAX_VENDOR_TEXT)}…` : clean;
}

function vendorError(body: Record<string, unknown>, status: number): DeviceFlowError {
  const raw = str(body.error);
  const code = raw ? vendorText(raw) || `http_${status}` : `http_${status}`;
  const description = str(body.error_description);
  return new DeviceFlowError(code, description ? `${code}: ${vendorText(description)}` : code);
}

/** Loopback hosts, where plain http is accepted for a verification URL (local fakes and proxies). */
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * `uri` when it is a URL a user may be sent to: https, or http on a loopback host; otherwise
 * undefined (a `javascript:`, `data:` or plain-http URL from the vendor is never offered).
 */
export function safeVerificationUri(uri: string | undefined): string | undefined {
  if (!uri) return undefined;
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return undefined;
  }
  if (url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.has(url.hostname))) return url.href;
  return undefined;
}

/** A user code the user can read and type: letters, digits, punctuation, symbols, spaces; 1–64 characters. */
const USER_CODE = /^[\p{L}\p{N}\p{P}\p{S} ]{1,64}$/u;

/**
 * Starts a device flow (RFC 8628 §3.1): POST `url` with client_id and scope. Errors:
 * DeviceFlowError (the vendor's error, e.g. the app has the device flow off, or a malformed
 * answer), the timeout's or signal's reason, a network TypeError.
 */
export async function requestDeviceCode(
  url: string,
  scope: string,
  req: DeviceFlowRequest,
): Promise<DeviceCode> {
  const { status, body } = await post(url, { client_id: req.clientId, ...(scope ? { scope } : {}) }, req);
  if (body.error !== undefined || status >= 400) throw vendorError(body, status);
  const device_code = str(body.device_code);
  const user_code = str(body.user_code);
  const verification_uri = str(body.verification_uri) ?? str(body.verification_url);
  const expires_in = num(body.expires_in);
  if (!device_code || !user_code || !verification_uri || expires_in === undefined)
    throw new DeviceFlowError('invalid_response', 'the device authorization response lacks a required field');
  const uri = safeVerificationUri(verification_uri);
  if (!uri)
    throw new DeviceFlowError(
      'invalid_response',
      'the device authorization response has a verification_uri that is not an https URL',
    );
  if (!USER_CODE.test(user_code))
    throw new DeviceFlowError(
      'invalid_response',
      'the device authorization response has a user_code with control, invisible or bidi characters',
    );
  const complete = safeVerificationUri(str(body.verification_uri_complete));
  return {
    device_code,
    user_code,
    verification_uri: uri,
    ...(complete ? { verification_uri_complete: complete } : {}),
    expires_in,
    interval: clampInterval(num(body.interval) ?? 5),
  };
}

/** Options of {@link pollDeviceToken}. */
export interface PollOptions extends DeviceFlowRequest {
  /** The token endpoint. */
  url: string;
  code: DeviceCode;
  /** Called after each `slow_down` with the new interval in seconds (diagnostics). */
  onSlowDown?: (intervalSeconds: number) => void;
  /** Longest the poll runs, in seconds, whatever `expires_in` says (default 3600). */
  maxWaitSeconds?: number;
}

/** The shortest interval polled at, in seconds, whatever the vendor sends (a 0 would spin). */
export const MIN_POLL_INTERVAL_S = 1;

/**
 * The longest interval polled at, in seconds, whatever the vendor sends (300 s: 5 minutes). RFC
 * 8628 §3.2 leaves `interval` to the server and §3.5 makes each `slow_down` add 5 s for all later
 * requests; a larger value (e.g. 1e9) would only stall the flow past `expires_in`, and beyond
 * 2^31−1 ms Node's timers fire at once.
 */
export const MAX_POLL_INTERVAL_S = 300;

/** `seconds` within [{@link MIN_POLL_INTERVAL_S}, {@link MAX_POLL_INTERVAL_S}]. */
function clampInterval(seconds: number): number {
  return Math.min(MAX_POLL_INTERVAL_S, Math.max(MIN_POLL_INTERVAL_S, seconds));
}

/** The RFC 8628 §3.4 grant type. */
export const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

/**
 * Polls the token endpoint (RFC 8628 §3.4) every `interval` seconds (within
 * [{@link MIN_POLL_INTERVAL_S}, {@link MAX_POLL_INTERVAL_S}], never waiting past the deadline)
 * until the user answers, for at most `expires_in` (capped by `maxWaitSeconds`):
 * `authorization_pending` polls again; `slow_down` adds 5 s to the interval for every later poll
 * (§3.5); a token resolves. Errors: DeviceFlowError with code `access_denied` (the user refused),
 * `expired_token` (the vendor says the code expired), `timeout` (expires_in passed here first),
 * or any other vendor error; the signal's reason when it aborts (the wait ends at once).
 */
export async function pollDeviceToken(options: PollOptions): Promise<DeviceToken> {
  const { code } = options;
  const deadline = Date.now() + Math.min(code.expires_in, options.maxWaitSeconds ?? 3600) * 1000;
  let interval = clampInterval(code.interval);
  for (;;) {
    // Never sleep past the deadline: the next check ends the flow then.
    await sleep(Math.min(interval * 1000, Math.max(0, deadline - Date.now())), options.signal);
    if (Date.now() >= deadline)
      throw new DeviceFlowError('timeout', `the code ${code.user_code} expired before it was approved`);
    const { status, body } = await post(
      options.url,
      { client_id: options.clientId, device_code: code.device_code, grant_type: DEVICE_CODE_GRANT },
      options,
    );
    const error = str(body.error);
    if (error === 'authorization_pending') continue;
    if (error === 'slow_down') {
      // GitHub also sends the new interval; never poll faster than RFC 8628's +5 s.
      interval = clampInterval(Math.max(interval + 5, num(body.interval) ?? 0));
      options.onSlowDown?.(interval);
      continue;
    }
    if (error === 'access_denied') throw new DeviceFlowError(error, 'the user denied access');
    if (error === 'expired_token')
      throw new DeviceFlowError(error, `the code ${code.user_code} expired before it was approved`);
    if (error !== undefined || status >= 400) throw vendorError(body, status);
    return tokenOf(body);
  }
}

/** The token fields of a successful token response (RFC 6749 §5.1). */
function tokenOf(body: Record<string, unknown>): DeviceToken {
  const access_token = str(body.access_token);
  if (!access_token) throw new DeviceFlowError('invalid_response', 'the token response has no access_token');
  return {
    access_token,
    ...(str(body.token_type) ? { token_type: body.token_type as string } : {}),
    ...(typeof body.scope === 'string' ? { scope: body.scope } : {}),
    ...(str(body.refresh_token) ? { refresh_token: body.refresh_token as string } : {}),
    ...(num(body.expires_in) !== undefined ? { expires_in: body.expires_in as number } : {}),
  };
}

/**
 * Exchanges a refresh token for a new access token (RFC 6749 §6: `grant_type=refresh_token`, a
 * public client identified by client_id) at the token endpoint `url`. The answer may carry a new
 * refresh token (GitLab rotates them). Errors: DeviceFlowError (the vendor's error, e.g.
 * `invalid_grant` for a revoked or used refresh token; `invalid_response`), the timeout's or
 * signal's reason, a network TypeError.
 */
export async function refreshAccessToken(
  url: string,
  refreshToken: string,
  req: DeviceFlowRequest,
): Promise<DeviceToken> {
  const { status, body } = await post(
    url,
    { client_id: req.clientId, grant_type: 'refresh_token', refresh_token: refreshToken },
    req,
  );
  if (body.error !== undefined || status >= 400) throw vendorError(body, status);
  return tokenOf(body);
}
