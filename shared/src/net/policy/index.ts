/**
 * `net/policy`: which URLs and hosts a server may reach — address classes (addresses.ts), the
 * operator's origin rules (origins.ts), the decision (network-policy.ts) and the flags that build
 * it (flags.ts). No HTTP client here: the browser enforces it in its proxy, `readPage` in its
 * connection lookup. Import this subpath (not `@refmcp/shared/net`) to keep the DOM and Readability
 * out of a bundle that needs only the rules.
 */
export * from './addresses.js';
export * from './flags.js';
export * from './network-policy.js';
export * from './origins.js';
