/**
 * `http`: the upstream HTTP policy for API servers (DESIGN.md §1) — base URL override and
 * validation, REST path segment encoding, timeouts, retries honouring Retry-After and rate-limit
 * resets within a budget, client-side pacing, user agent, and error summaries without secrets.
 * Servers with a vendor SDK (GitHub/Octokit) use the policy numbers, `decideRetry`, the summariser
 * and the path encoders with it; others use `HttpClient`.
 */
export * from './http/base-url.js';
export * from './http/client.js';
export * from './http/errors.js';
export * from './http/pacer.js';
export * from './http/path.js';
export * from './http/policy.js';
export * from './http/user-agent.js';
