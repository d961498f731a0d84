/**
 * `net`: reaching arbitrary web pages under the operator's network policy. The policy itself
 * (addresses, origin rules, flags) is `./policy` (also importable alone as
 * `@refmcp/shared/net/policy`); `readPage` fetches one page as paged Markdown through a connector
 * that enforces the policy at connect time.
 */
export * from './article.js';
export * from './body.js';
export * from './connect.js';
export * from './errors.js';
export * from './fetch-page.js';
export * from './markdown.js';
export * from './page-cache.js';
export * from './policy/index.js';
export * from './read-page.js';
export * from './slice.js';
