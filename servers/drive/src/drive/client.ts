/**
 * The Drive client: `@googleapis/drive` v3 (and `@googleapis/docs` v1 for a Doc's tabs, at
 * `docsUrl`: same credentials and policy) over the shared upstream policy.
 * - Every call gets `rootUrl` (GDRIVE_API_URL) in its own options: the generated client builds
 *   upload URLs from its default root and would send media uploads to www.googleapis.com.
 * - Every attempt runs through transport.ts's fetch (timeout, size cap); gaxios' retries are off;
 *   failures are decided by the shared `decideRetry` with Google's hooks (403/429
 *   `userRateLimitExceeded`/`rateLimitExceeded` waited out within the budget, 5xx retried for
 *   idempotent methods only), then summarised (errors.ts).
 * - Shared Drives on every call: `supportsAllDrives` is added to each method that takes it.
 * - Writes are paced by the policy's write interval; at most `maxConcurrent` calls in flight.
 */
import { type docs_v1, docs as docsApi } from '@googleapis/docs';
import { type drive_v3, drive as driveApi } from '@googleapis/drive';
import { commandHint, ToolError } from '@refmcp/shared/server';
import {
  ConcurrencyLimit,
  decideRetry,
  GOOGLE_HOOKS,
  type HttpPolicy,
  IntervalGate,
  sleep,
} from '@refmcp/shared/upstream';
import type { OAuth2Client } from 'google-auth-library';
import { googleFailure, SERVICE, toDriveError } from './errors.js';

export interface DriveClientOptions {
  rootUrl: string;
  /** The Docs API root (GDOCS_API_URL, default https://docs.googleapis.com/). */
  docsUrl: string;
  tokenUrl: string;
  auth: OAuth2Client;
  /** True when the auth client can get a new access token (then a 401 refreshes once and retries). */
  readonly refreshable: boolean;
  /** Why no call can be made yet (not signed in), or undefined: checked before each call. */
  unavailable?: () => string | undefined;
  policy: HttpPolicy;
  /** Values never shown in a message. */
  secrets: () => readonly string[];
}

/** Per-call options handed to a generated method. */
export interface CallOptions {
  rootUrl: string;
  signal: AbortSignal;
  responseType?: 'arraybuffer' | 'json' | 'text';
  headers?: Record<string, string>;
  retry: false;
}

/** What a generated method resolves with (a GaxiosResponse). */
export interface DriveResponse<T> {
  status: number;
  data: T;
  headers: unknown;
}

export class DriveClient {
  readonly api: drive_v3.Drive;
  /** The Docs API; call it through {@link call} with `{ docs: true }`. */
  readonly docs: docs_v1.Docs;
  private readonly writes: IntervalGate;
  private readonly limit: ConcurrencyLimit;

  constructor(readonly options: DriveClientOptions) {
    this.api = driveApi({ version: 'v3', auth: options.auth, rootUrl: options.rootUrl, retry: false });
    this.docs = docsApi({ version: 'v1', auth: options.auth, rootUrl: options.docsUrl, retry: false });
    this.writes = new IntervalGate(options.policy.minWriteIntervalMs);
    this.limit = new ConcurrencyLimit(options.policy.maxConcurrent);
  }

  /**
   * One logical Drive call: `run` calls a generated method with the per-call options it is given.
   * `method` is the HTTP method (retries and pacing depend on it); `what` names the call in
   * messages ("files.get SDFILE1"). Resolves with the response. Errors: HttpError (summarised),
   * SignInExpired, TimeoutError, ResponseTooLarge, or the signal's reason.
   */
  async call<T>(
    method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
    what: string,
    run: (options: CallOptions) => Promise<DriveResponse<unknown>>,
    signal: AbortSignal,
    extra: {
      responseType?: CallOptions['responseType'];
      headers?: Record<string, string>;
      /** A Docs API call: the Docs root instead of Drive's. */
      docs?: boolean;
    } = {},
  ): Promise<DriveResponse<T>> {
    const unavailable = this.options.unavailable?.();
    if (unavailable) throw new ToolError(unavailable);
    const { docs, ...pass } = extra;
    const rootUrl = docs ? this.options.docsUrl : this.options.rootUrl;
    const started = Date.now();
    if (method !== 'GET') await this.writes.pass();
    return this.limit.run(async () => {
      let refreshed = false;
      for (let retries = 0; ; retries++) {
        try {
          return (await run({ rootUrl, signal, retry: false, ...pass })) as DriveResponse<T>;
        } catch (error) {
          const cause = (error as { cause?: unknown }).cause;
          if (error instanceof ToolError) throw error;
          if (cause instanceof ToolError) throw cause;
          if (signal.aborted) throw signal.reason;
          const failure = googleFailure(error);
          if (failure.status === undefined && !(error as { response?: unknown }).response) {
            const decision = decideRetry(
              { method, retries, elapsedMs: Date.now() - started },
              this.options.policy,
            );
            if (decision.retry) {
              await sleep(decision.delayMs, signal);
              continue;
            }
            throw new ToolError(`${SERVICE} ${method} ${what}: no answer (${(error as Error).message})`);
          }
          const answer = { status: failure.status ?? 0, headers: failure.headers ?? {}, data: failure.data };
          const vendor = GOOGLE_HOOKS.failure(answer) ?? {};
          const tokenCall = failure.url?.startsWith(this.options.tokenUrl);
          // A token that looked fresh was refused (revoked, clock skew): refresh once and retry.
          if (!tokenCall && failure.status === 401 && this.options.refreshable && !refreshed) {
            refreshed = true;
            retries--;
            this.options.auth.credentials = { ...this.options.auth.credentials, expiry_date: 1 };
            continue;
          }
          if (!tokenCall) {
            const decision = decideRetry(
              {
                method,
                status: failure.status,
                ...(failure.headers ? { headers: failure.headers } : {}),
                retries,
                elapsedMs: Date.now() - started,
                rateLimited: GOOGLE_HOOKS.rateLimited(answer, vendor),
              },
              this.options.policy,
            );
            if (decision.retry) {
              await sleep(decision.delayMs, signal);
              continue;
            }
          }
          throw toDriveError(failure, method, what, this.options.tokenUrl, this.options.secrets());
        }
      }
    });
  }

  /** A fresh access token for a request outside the generated client (export links). */
  async accessToken(): Promise<string> {
    const { token } = await this.options.auth.getAccessToken();
    if (!token)
      throw new ToolError(`no Drive access token: run ${commandHint('mcp-server-drive', 'auth')} again`);
    return token;
  }
}
