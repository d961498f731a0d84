// A fake GitLab REST API (v4) for the GitLab server's tests, demo and bench: an in-memory GitLab
// (users and tokens, groups and subgroups, projects with members and access levels, repositories
// per branch, issues, merge requests with diffs, discussions and approvals, pipelines and jobs
// with logs) served on 127.0.0.1 by the harness's fake-API toolkit under /api/v4 (or any prefix,
// for self-hosted layouts). Every route is an operation of GitLab's own OpenAPI description and
// every reply body a suite's traffic produced validates against it, with documented errata
// (./spec.ts, ./errata.ts). OAuth's device grant and token refresh (./oauth.ts) are web routes
// outside the REST description and follow GitLab's docs instead. This file only re-exports.
export {
  FakeGitLab,
  type FakeGitLabOptions,
  type GitLabHandler,
  type StagedReply,
  type ThrottleOptions,
} from './fake-gitlab.js';
export { type GitLabCaller, glError, glInvalid } from './http.js';
export { FakeGitLabOAuth, type GitLabDeviceGrant } from './oauth.js';
export { TRACE_BYTE_LIMIT_MAX } from './routes-pipelines.js';
export * from './seed.js';
export { startFakeGitLab } from './start.js';
export {
  type AccessLevel,
  DEVELOPER,
  fullPath,
  GitLabState,
  GUEST,
  type IssueRecord,
  MAINTAINER,
  type MergeRequestRecord,
  OWNER,
  type ProjectRecord,
  REPORTER,
} from './state.js';
