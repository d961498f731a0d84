// A fake GitHub REST API (and GraphQL endpoint: routes-graphql.ts) for the GitHub server's tests, demo and bench: an in-memory GitHub
// (users, tokens, repositories with real git objects, issues, pull requests, reviews, statuses,
// releases, Actions) served over HTTP on 127.0.0.1 by the harness's fake-API toolkit, under the
// GHE-style prefix /api/v3. Every route exists in GitHub's OpenAPI description and every reply
// body a suite's traffic produced validates against it (the spec check; ./spec.ts). Job logs
// redirect to a second origin, as GitHub's do. The OAuth device flow's two web-host endpoints
// (device-flow.ts) are not in the REST description and follow GitHub's docs instead. This file
// only re-exports.
export { type DeviceGrant, FakeDeviceFlow } from './device-flow.js';
export { FakeGitHub, type FakeGitHubOptions, type GitHubHandler } from './fake-github.js';
export * from './seed.js';
export { startFakeGitHub } from './start.js';
export type { IssueRecord, RepoRecord } from './state.js';
export { GitHubState } from './state.js';
