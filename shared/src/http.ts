/**
 * `http`: the upstream HTTP layer for API servers (DESIGN.md §1) — base URL override and
 * validation, REST path segment encoding, timed and size-capped attempts, retries honouring
 * Retry-After and rate-limit resets within a budget, client-side pacing, user agent, vendor hooks
 * for "failed" and "rate limited", Link-header and vendor-token pagination behind one cursor, the
 * HTTP flags and token reading, and error summaries without secrets. Servers with a vendor SDK
 * (GitHub/Octokit) use timedFetch, `decideRetry`, the summariser and the path encoders with it;
 * others use `HttpClient`.
 */
export * from './http/base-url.js';
export * from './http/client.js';
export * from './http/cursor.js';
export * from './http/errors.js';
export * from './http/fetch.js';
export * from './http/link.js';
export * from './http/options.js';
export * from './http/pacer.js';
export * from './http/path.js';
export * from './http/policy.js';
export * from './http/token.js';
export * from './http/user-agent.js';
export * from './http/vendors.js';
export * from './http/windows.js';
