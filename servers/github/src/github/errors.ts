/**
 * GitHub API failures as model-facing errors (case GH-08): status and meaning from the shared
 * summariser, plus GitHub's own hints — a 404 may mean missing access, and the token's scopes
 * (x-oauth-scopes), the scopes the endpoint accepts (x-accepted-oauth-scopes) and a SAML SSO
 * requirement (x-github-sso) are named. Never the token: every message is scrubbed.
 */
import { HttpError, REST_HOOKS, redact, summarizeHttpFailure } from '@refmcp/shared';

/** What Octokit's RequestError carries (duck-typed: the class is not a direct dependency). */
export interface OctokitFailure {
  status: number;
  message: string;
  response?: { headers: Record<string, string | undefined>; data?: unknown };
}

export function isOctokitFailure(error: unknown): error is OctokitFailure {
  return (
    error instanceof Error &&
    !(error instanceof HttpError) &&
    typeof (error as { status?: unknown }).status === 'number' &&
    'request' in error
  );
}

/** A failed GitHub call: the summary as message, and the facts tools branch on. */
export class GitHubApiError extends HttpError {
  constructor(
    message: string,
    status: number,
    /** Response headers (lower-case). */
    readonly headers: Record<string, string | undefined>,
    /** GitHub's own `message`, unaltered (for tools that recognise e.g. "Git Repository is empty."). */
    readonly upstream: string,
    retryAt?: number,
  ) {
    super(message, status, retryAt);
  }
}

function scopeHints(
  status: number,
  headers: Record<string, string | undefined>,
  authenticated: boolean,
  tokenHint = 'Check GITHUB_PERSONAL_ACCESS_TOKEN (expired, revoked or mistyped).',
): string[] {
  const hints: string[] = [];
  const sso = headers['x-github-sso'];
  if (sso)
    hints.push(
      `The organization requires SAML SSO authorization for this token (${sso.replace(/^required;\s*url=/, 'authorize at ')}).`,
    );
  if (status !== 401 && status !== 403 && status !== 404) return hints;
  if (!authenticated) {
    hints.push(
      'No token is configured: only public data is visible. Set GITHUB_PERSONAL_ACCESS_TOKEN to reach private repositories.',
    );
    return hints;
  }
  const scopes = headers['x-oauth-scopes'];
  if (scopes !== undefined) hints.push(`The token's scopes: ${scopes.trim() || '(none)'} (x-oauth-scopes).`);
  else if (status !== 401)
    hints.push(
      'The token reports no OAuth scopes (a fine-grained token or GitHub App): check its repository access and permissions.',
    );
  const accepted = headers['x-accepted-oauth-scopes'];
  if (accepted?.trim()) hints.push(`This endpoint accepts: ${accepted.trim()} (x-accepted-oauth-scopes).`);
  if (status === 401) hints.push(tokenHint);
  return hints;
}

/**
 * Converts what Octokit threw into a GitHubApiError (for an HTTP failure) or leaves it (timeouts,
 * aborts, our own ToolErrors). `method`/`path` name the call; `secrets` are scrubbed.
 */
export function toGitHubError(
  error: unknown,
  method: string,
  path: string,
  opts: { secrets: readonly string[]; authenticated: boolean; retryAt?: number; tokenHint?: string },
): unknown {
  if (!isOctokitFailure(error)) return error;
  const headers = error.response?.headers ?? {};
  if (!error.response) {
    // Octokit reports network failures as status 500 without a response.
    return new GitHubApiError(
      redact(
        `GitHub API: ${method} ${path} failed before any response (${error.message}). Check GITHUB_API_URL and the network.`,
        opts.secrets,
      ),
      0,
      {},
      error.message,
    );
  }
  // GitHub is a REST-style API: the shared REST hooks read its {message, errors[]} bodies.
  const { message, details } =
    REST_HOOKS.failure({ status: error.status, headers, data: error.response.data }) ?? {};
  const text = summarizeHttpFailure(
    {
      service: 'GitHub API',
      status: error.status,
      method,
      path,
      headers,
      ...(message ? { message } : {}),
      ...(details ? { details } : {}),
      hints: scopeHints(error.status, headers, opts.authenticated, opts.tokenHint),
    },
    opts.secrets,
  );
  return new GitHubApiError(text, error.status, headers, message ?? '', opts.retryAt);
}
