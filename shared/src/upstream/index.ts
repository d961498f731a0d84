/**
 * `upstream`: the HTTP client layer API servers call their vendors with (DESIGN.md §1) — base URL override and
 * validation, REST path segment encoding, timed and size-capped attempts, retries honouring
 * Retry-After and rate-limit resets within a budget, client-side pacing, user agent, vendor hooks
 * for "failed" and "rate limited", Link-header and vendor-token pagination behind one cursor, the
 * HTTP flags and token reading, and error summaries without secrets. Servers with a vendor SDK
 * (GitHub/Octokit) use timedFetch, `decideRetry`, the summariser and the path encoders with it;
 * others use `HttpClient`.
 */
export * from './base-url.js';
export * from './client.js';
export * from './credentials-file.js';
export * from './cursor.js';
export * from './device-flow.js';
export * from './errors.js';
export * from './fetch.js';
export * from './link.js';
export * from './node-attempt.js';
export * from './options.js';
export * from './pacer.js';
export * from './path.js';
export * from './policy.js';
export * from './redirect.js';
export * from './suggestions.js';
export * from './token.js';
export * from './user-agent.js';
export * from './vendors.js';
export * from './windows.js';
