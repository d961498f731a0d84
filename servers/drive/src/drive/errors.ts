/**
 * Drive's failures as the model reads them: Google's error envelope summarised by the shared
 * summary (status, reason, Drive's message, where to retry), a refused refresh turned into "run
 * `mcp-server-drive auth` again" (never the refresh token or the request body), and a hint for the
 * failures people meet most (404 on a file the credentials cannot see, 403 scopes).
 */

import { commandHint, ToolError } from '@refmcp/shared/server';
import {
  GOOGLE_HOOKS,
  type HeaderSource,
  HttpError,
  redact,
  summarizeHttpFailure,
} from '@refmcp/shared/upstream';

/** The service name in messages. */
export const SERVICE = 'Google Drive API';

/** A refresh the token endpoint refused: the saved sign-in is no longer valid. */
export class SignInExpired extends ToolError {
  override name = 'SignInExpired';
}

/** What a GaxiosError carries that a summary may use. */
export interface GoogleFailure {
  status?: number;
  headers?: HeaderSource;
  data?: unknown;
  url?: string;
}

/** A GaxiosError's status, headers, parsed body and URL (bodies read as bytes are parsed as JSON). */
export function googleFailure(error: unknown): GoogleFailure {
  const e = error as {
    status?: number;
    config?: { url?: string | URL };
    response?: { status?: number; headers?: HeaderSource; data?: unknown };
  };
  const response = e.response;
  let data = response?.data;
  if (data instanceof ArrayBuffer || ArrayBuffer.isView(data)) {
    const text = Buffer.from(data as ArrayBuffer).toString('utf8');
    try {
      data = JSON.parse(text);
    } catch {
      data = text;
    }
  } else if (typeof data === 'string') {
    try {
      data = JSON.parse(data);
    } catch {
      // keep the text
    }
  }
  return {
    ...(response?.status !== undefined ? { status: response.status } : {}),
    ...(response?.headers ? { headers: response.headers } : {}),
    ...(data !== undefined ? { data } : {}),
    ...(e.config?.url ? { url: String(e.config.url) } : {}),
  };
}

const HINTS: Record<number, string> = {
  401: `The credentials were refused: run ${commandHint('mcp-server-drive', 'auth')} again (or check GOOGLE_APPLICATION_CREDENTIALS).`,
  404: 'Check the id; a file in a Shared Drive or shared with you is found only if these credentials can see it.',
};

/**
 * The error for a failed Drive answer: SignInExpired for a refused refresh (the token endpoint
 * `tokenUrl` answered 400/401), else an HttpError with the shared summary and Drive's `reason`.
 */
export function toDriveError(
  failure: GoogleFailure,
  method: string,
  what: string,
  tokenUrl: string,
  secrets: readonly string[],
): Error {
  const status = failure.status ?? 0;
  const answer = { status, headers: failure.headers ?? {}, data: failure.data };
  const vendor = GOOGLE_HOOKS.failure(answer) ?? {};
  if (failure.url?.startsWith(tokenUrl) || failure.url === 'https://oauth2.googleapis.com/token')
    return new SignInExpired(
      vendor.reason === 'invalid_client'
        ? `Google refused to refresh the Drive sign-in (${status} invalid_client): the OAuth client keys are missing or wrong. Point GDRIVE_OAUTH_PATH at the keys JSON of the client that signed in (Google Cloud console), or run ${commandHint('mcp-server-drive', 'auth')} again with the right keys.`
        : `Google refused to refresh the Drive sign-in (${status}${vendor.reason ? ` ${vendor.reason}` : ''}): the saved token has expired or was revoked. Run ${commandHint('mcp-server-drive', 'auth')} again to sign in.`,
    );
  const first = (failure.data as { error?: { errors?: Array<{ location?: unknown }> } } | undefined)?.error
    ?.errors?.[0];
  const location = typeof first?.location === 'string' ? first.location : undefined;
  const insufficient = vendor.reason === 'insufficientPermissions' || vendor.reason === 'insufficientScopes';
  const hints = [
    ...(location ? [`Drive points at the parameter "${location}".`] : []),
    ...(HINTS[status] ? [HINTS[status]] : []),
    ...(insufficient
      ? [
          'The sign-in lacks the scope for this: sign in again with the toolsets that need it, e.g. `mcp-server-drive auth --toolsets files_write` (or `--toolsets all`).',
        ]
      : []),
  ];
  const message = summarizeHttpFailure(
    {
      service: SERVICE,
      status,
      method,
      path: what,
      ...(failure.headers ? { headers: failure.headers } : {}),
      ...(vendor.message ? { message: vendor.message } : {}),
      ...(vendor.details ? { details: vendor.details } : {}),
      ...(vendor.reason ? { reason: vendor.reason } : {}),
      rateLimited: GOOGLE_HOOKS.rateLimited(answer, vendor),
      hints,
    },
    secrets,
  );
  return new HttpError(redact(message, secrets), status, undefined, vendor.reason);
}

/** True when `error` is an HttpError with `status` (and `reason`, when given). */
export function isDriveError(error: unknown, status: number, reason?: string): boolean {
  return (
    error instanceof HttpError && error.status === status && (reason === undefined || error.reason === reason)
  );
}
