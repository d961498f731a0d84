// The fake GitLab's records: access levels, users and tokens, namespaces, projects, issues,
// merge requests, notes, pipelines and jobs — plain data that state.ts seeds and looks up and the
// entity builders (objects*.ts) render.
import type { Repository } from './repo.js';

/** GitLab's access levels: Guest, Reporter, Developer, Maintainer, Owner (0 = none). */
export type AccessLevel = 0 | 10 | 20 | 30 | 40 | 50;
export const GUEST = 10;
export const REPORTER = 20;
export const DEVELOPER = 30;
export const MAINTAINER = 40;
export const OWNER = 50;

export type Visibility = 'public' | 'internal' | 'private';

export interface UserRecord {
  id: number;
  username: string;
  name: string;
  email: string;
  createdAt: string;
  bot: boolean;
  /** The user's personal namespace. */
  namespace: NamespaceRecord;
}

export interface TokenRecord {
  userId: number;
  /** Personal access token scopes: "api" writes; "read_api" only reads. */
  scopes: string[];
  /** Epoch ms after which the token is refused (an OAuth access token: 2 h on GitLab); none for a PAT. */
  expiresAt?: number;
}

export interface NamespaceRecord {
  id: number;
  name: string;
  path: string;
  fullPath: string;
  kind: 'user' | 'group';
  parent: NamespaceRecord | null;
  visibility: Visibility;
  /** Group members: user id → access level (inherited by subgroups and projects). */
  members: Map<number, AccessLevel>;
}

export interface NoteRecord {
  id: number;
  body: string;
  authorId: number;
  system: boolean;
  createdAt: string;
  updatedAt: string;
  /** The discussion (thread) the note belongs to: 40 hex digits. */
  discussionId: string;
  /** True for a note started as a standalone comment (its discussion has one note). */
  individual: boolean;
  /** A diff note's position (MR discussions on a line), GitLab's `position` object. */
  position?: Record<string, unknown>;
  resolvable: boolean;
  resolved: boolean;
  /** An internal note (GitLab's `internal`): visible to Reporter access and above only. */
  internal?: boolean;
}

/**
 * A work item reachable only through GraphQL (a group epic since GitLab 17.2, or any work item by
 * namespace and iid): its notes are discussions as on issues.
 */
export interface WorkItemRecord {
  id: number;
  iid: number;
  title: string;
  /** Full path of the group or project that holds it. */
  namespacePath: string;
  authorId: number;
  createdAt: string;
  updatedAt: string;
  notes: NoteRecord[];
}

interface IssuableRecord {
  id: number;
  iid: number;
  title: string;
  description: string | null;
  state: 'opened' | 'closed' | 'merged' | 'locked';
  authorId: number;
  assigneeIds: number[];
  labels: string[];
  createdAt: string;
  updatedAt: string;
  closedAt: string | null;
  closedById: number | null;
  notes: NoteRecord[];
  discussionLocked: boolean;
}

export interface IssueRecord extends IssuableRecord {
  state: 'opened' | 'closed';
  confidential: boolean;
  dueDate: string | null;
}

export interface MergeRequestRecord extends IssuableRecord {
  sourceBranch: string;
  targetBranch: string;
  reviewerIds: number[];
  draft: boolean;
  /** Commit ids fixed when the MR merged (live from the branches while open). */
  mergedAt: string | null;
  mergedById: number | null;
  mergeCommitSha: string | null;
  /** Head sha frozen at merge time. */
  headSha: string | null;
  baseSha: string | null;
  approvals: Array<{ userId: number; at: string }>;
  squash: boolean;
  shouldRemoveSourceBranch: boolean | null;
}

export type JobStatus =
  | 'created'
  | 'pending'
  | 'running'
  | 'success'
  | 'failed'
  | 'canceled'
  | 'skipped'
  | 'manual';

export interface JobRecord {
  id: number;
  name: string;
  stage: string;
  status: JobStatus;
  allowFailure: boolean;
  failureReason: string | null;
  log: Buffer;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

export interface PipelineRecord {
  id: number;
  iid: number;
  ref: string;
  sha: string;
  beforeSha: string;
  status: JobStatus;
  source: string;
  userId: number;
  createdAt: string;
  updatedAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  jobs: JobRecord[];
}

/** A project label (GitLab creates one when an issue or MR is given an unknown name). */
export interface LabelRecord {
  id: number;
  name: string;
  /** `#rrggbb`. */
  color: string;
  description: string | null;
  priority: number | null;
}

export interface ProjectRecord {
  id: number;
  name: string;
  path: string;
  namespace: NamespaceRecord;
  description: string | null;
  visibility: Visibility;
  creatorId: number;
  createdAt: string;
  lastActivityAt: string;
  archived: boolean;
  topics: string[];
  starCount: number;
  forksCount: number;
  /** Project members: user id → access level (over inherited group membership, the higher wins). */
  members: Map<number, AccessLevel>;
  /** Secrets GitLab exposes in project objects (to Maintainers): the runner registration token, a credentialed import URL. */
  runnersToken: string;
  importUrl: string | null;
  forkedFrom: ProjectRecord | null;
  repo: Repository;
  issues: IssueRecord[];
  mergeRequests: MergeRequestRecord[];
  pipelines: PipelineRecord[];
  labels: LabelRecord[];
}
