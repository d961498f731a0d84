// The fake GitHub's data: users, tokens, repositories (git objects, branches, tags), issues and
// pull requests (one number space, as on GitHub), comments, reviews, statuses, releases and
// Actions runs — plus the seeding API tests, the demo and the bench use to set a scene.
import { type FileMap, type GitCommit, GitStore } from './git.js';

export type Permission = 'admin' | 'maintain' | 'write' | 'triage' | 'read';

export interface UserRecord {
  login: string;
  id: number;
  type: 'User' | 'Organization';
  name: string | null;
  email: string | null;
  createdAt: string;
}

export interface CommentRecord {
  id: number;
  user: string;
  body: string;
  createdAt: string;
  updatedAt: string;
}

export interface ReviewRecord {
  id: number;
  user: string;
  body: string;
  state: 'APPROVED' | 'CHANGES_REQUESTED' | 'COMMENTED' | 'DISMISSED' | 'PENDING';
  commitId: string;
  submittedAt: string;
}

export interface ReviewCommentRecord {
  id: number;
  reviewId: number | null;
  user: string;
  body: string;
  path: string;
  line: number;
  commitId: string;
  createdAt: string;
  /** The thread's first comment, for a reply. */
  inReplyTo?: number;
  side?: 'LEFT' | 'RIGHT';
  /** First line of a multi-line comment, and its side. */
  startLine?: number;
  startSide?: 'LEFT' | 'RIGHT';
  /** A thread's first comment only: who resolved the thread (GraphQL resolveReviewThread); absent when unresolved. */
  resolvedBy?: string;
  /** GraphQL's PullRequestReviewThreadSubjectType; default LINE. */
  subjectType?: 'LINE' | 'FILE';
}

export interface PullRecord {
  head: string;
  base: string;
  draft: boolean;
  merged: boolean;
  mergedAt: string | null;
  mergedBy: string | null;
  mergeCommitSha: string | null;
  /** Head sha frozen at merge/close time; live from the branch otherwise. */
  headSha: string | null;
  maintainerCanModify: boolean;
  reviews: ReviewRecord[];
  reviewComments: ReviewCommentRecord[];
}

export interface IssueRecord {
  number: number;
  id: number;
  title: string;
  body: string | null;
  user: string;
  state: 'open' | 'closed';
  labels: string[];
  assignees: string[];
  milestone: number | null;
  comments: CommentRecord[];
  createdAt: string;
  updatedAt: string;
  closedAt: string | null;
  locked: boolean;
  pull?: PullRecord;
  /** Ids of its sub-issues, in order (any repository of the same owner). */
  subIssues?: number[];
  /** Id of its parent issue, when it is a sub-issue. */
  parentId?: number;
}

/** A repository label (GitHub's `label` schema, less ids and URLs). */
export interface LabelRecord {
  name: string;
  color: string;
  description: string | null;
}

export interface ReleaseRecord {
  id: number;
  tag: string;
  name: string;
  body: string;
  draft: boolean;
  prerelease: boolean;
  createdAt: string;
  publishedAt: string;
  author: string;
  targetCommitish: string;
}

export interface JobRecord {
  id: number;
  runId: number;
  name: string;
  status: 'queued' | 'in_progress' | 'completed';
  conclusion: 'success' | 'failure' | 'cancelled' | 'skipped' | null;
  startedAt: string;
  completedAt: string | null;
  steps: { name: string; status: 'completed'; conclusion: 'success' | 'failure'; number: number }[];
  log: string;
}

export interface RunRecord {
  id: number;
  name: string;
  path: string;
  workflowId: number;
  runNumber: number;
  headBranch: string;
  headSha: string;
  event: string;
  status: 'queued' | 'in_progress' | 'completed';
  conclusion: 'success' | 'failure' | 'cancelled' | null;
  actor: string;
  createdAt: string;
  updatedAt: string;
  jobs: JobRecord[];
  /** workflow_dispatch inputs. */
  inputs?: Record<string, unknown>;
}

/** A check run by an app other than GitHub Actions (Actions jobs are check runs of their own). */
export interface CheckRunRecord {
  id: number;
  name: string;
  headSha: string;
  status: 'queued' | 'in_progress' | 'completed';
  conclusion:
    | 'success'
    | 'failure'
    | 'neutral'
    | 'cancelled'
    | 'skipped'
    | 'timed_out'
    | 'action_required'
    | null;
  startedAt: string;
  completedAt: string | null;
  detailsUrl: string | null;
  title: string | null;
  summary: string | null;
  text: string | null;
  /** The app's slug and name. */
  app: { slug: string; name: string };
}

export interface StatusRecord {
  id: number;
  state: 'error' | 'failure' | 'pending' | 'success';
  context: string;
  description: string | null;
  targetUrl: string | null;
  creator: string;
  createdAt: string;
}

export interface RepoRecord {
  id: number;
  owner: string;
  name: string;
  private: boolean;
  description: string | null;
  defaultBranch: string;
  store: GitStore;
  branches: Map<string, string>;
  tags: Map<string, string>;
  collaborators: Map<string, Permission>;
  issues: IssueRecord[];
  releases: ReleaseRecord[];
  runs: RunRecord[];
  statuses: Map<string, StatusRecord[]>;
  checkRuns: CheckRunRecord[];
  /** Labels defined on the repository; names used on issues but absent here are listed too. */
  labels?: LabelRecord[];
  createdAt: string;
  pushedAt: string;
  parent?: RepoRecord;
}

/** Content for seeding: text, bytes, or null to delete. */
export type SeedFiles = Record<string, string | Buffer | null>;

const START = Date.parse('2024-01-01T00:00:00Z');

export class GitHubState {
  readonly users = new Map<string, UserRecord>();
  readonly repos: RepoRecord[] = [];
  /** token → login. */
  readonly tokens = new Map<string, string>();
  private ids = 1000;
  private minutes = 0;

  nextId(): number {
    return ++this.ids;
  }

  /** A deterministic clock: one minute later on every call. */
  now(): string {
    return new Date(START + ++this.minutes * 60_000).toISOString().replace('.000Z', 'Z');
  }

  addUser(
    login: string,
    opts: { type?: 'User' | 'Organization'; name?: string; token?: string } = {},
  ): UserRecord {
    const existing = this.users.get(login.toLowerCase());
    if (existing) return existing;
    const user: UserRecord = {
      login,
      id: this.nextId(),
      type: opts.type ?? 'User',
      name: opts.name ?? null,
      email: opts.type === 'Organization' ? null : `${login}@users.noreply.example.com`,
      createdAt: this.now(),
    };
    this.users.set(login.toLowerCase(), user);
    if (opts.token) this.tokens.set(opts.token, login);
    return user;
  }

  user(login: string): UserRecord | undefined {
    return this.users.get(login.toLowerCase());
  }

  repo(owner: string, name: string): RepoRecord | undefined {
    return this.repos.find(
      (r) => r.owner.toLowerCase() === owner.toLowerCase() && r.name.toLowerCase() === name.toLowerCase(),
    );
  }

  /** Creates a repository; with `files` it gets an initial commit on the default branch, else it is empty. */
  addRepo(
    owner: string,
    name: string,
    opts: {
      private?: boolean;
      description?: string;
      defaultBranch?: string;
      files?: SeedFiles;
      collaborators?: Record<string, Permission>;
    } = {},
  ): RepoRecord {
    const ownerUser = this.addUser(owner);
    const repo: RepoRecord = {
      id: this.nextId(),
      owner: ownerUser.login,
      name,
      private: opts.private ?? false,
      description: opts.description ?? null,
      defaultBranch: opts.defaultBranch ?? 'main',
      store: new GitStore(),
      branches: new Map(),
      tags: new Map(),
      collaborators: new Map(Object.entries(opts.collaborators ?? {})),
      issues: [],
      releases: [],
      runs: [],
      statuses: new Map(),
      checkRuns: [],
      createdAt: this.now(),
      pushedAt: this.now(),
    };
    if (ownerUser.type === 'User') repo.collaborators.set(ownerUser.login, 'admin');
    for (const login of repo.collaborators.keys()) this.addUser(login);
    this.repos.push(repo);
    if (opts.files) this.commit(repo, repo.defaultBranch, opts.files, 'Initial commit', ownerUser.login);
    return repo;
  }

  /** The permission `login` has on `repo` (owner: admin), or undefined. */
  permission(repo: RepoRecord, login: string | undefined): Permission | undefined {
    if (!login) return undefined;
    for (const [who, perm] of repo.collaborators) if (who.toLowerCase() === login.toLowerCase()) return perm;
    return undefined;
  }

  canRead(repo: RepoRecord, login: string | undefined): boolean {
    return !repo.private || this.permission(repo, login) !== undefined;
  }

  canPush(repo: RepoRecord, login: string | undefined): boolean {
    const p = this.permission(repo, login);
    return p === 'admin' || p === 'maintain' || p === 'write';
  }

  /** Commits `changes` on top of `branch` (created from the default branch, or as the first commit). */
  commit(repo: RepoRecord, branch: string, changes: SeedFiles, message: string, login: string): GitCommit {
    const parent = repo.branches.get(branch) ?? repo.branches.get(repo.defaultBranch);
    const files: FileMap = parent ? repo.store.filesOf(parent) : new Map();
    for (const [path, content] of Object.entries(changes)) {
      if (content === null) files.delete(path);
      else files.set(path, repo.store.writeBlob(content));
    }
    const user = this.addUser(login);
    const date = this.now();
    const signature = {
      name: user.name ?? user.login,
      email: user.email ?? `${user.login}@example.com`,
      date,
    };
    const commit = repo.store.writeCommit({
      tree: repo.store.writeTree(files),
      parents: parent ? [parent] : [],
      message,
      author: signature,
      committer: signature,
      login: user.login,
    });
    repo.branches.set(branch, commit.sha);
    if (!repo.branches.has(repo.defaultBranch)) repo.defaultBranch = branch;
    repo.pushedAt = date;
    return commit;
  }

  /** True when the repository has no commits. */
  isEmpty(repo: RepoRecord): boolean {
    return repo.branches.size === 0;
  }

  addIssue(
    repo: RepoRecord,
    opts: {
      title: string;
      body?: string | null;
      user: string;
      labels?: string[];
      state?: 'open' | 'closed';
      comments?: { user: string; body: string }[];
    },
  ): IssueRecord {
    this.addUser(opts.user);
    const created = this.now();
    const issue: IssueRecord = {
      number: repo.issues.length + 1,
      id: this.nextId(),
      title: opts.title,
      body: opts.body ?? null,
      user: opts.user,
      state: opts.state ?? 'open',
      labels: opts.labels ?? [],
      assignees: [],
      milestone: null,
      comments: [],
      createdAt: created,
      updatedAt: created,
      closedAt: opts.state === 'closed' ? created : null,
      locked: false,
    };
    repo.issues.push(issue);
    for (const c of opts.comments ?? []) this.addComment(issue, c.user, c.body);
    return issue;
  }

  addComment(issue: IssueRecord, user: string, body: string): CommentRecord {
    this.addUser(user);
    const at = this.now();
    const comment = { id: this.nextId(), user, body, createdAt: at, updatedAt: at };
    issue.comments.push(comment);
    issue.updatedAt = at;
    return comment;
  }

  /** Opens a pull request from `head` into `base`; `files` are committed onto `head` first. */
  addPull(
    repo: RepoRecord,
    opts: {
      title: string;
      body?: string | null;
      user: string;
      head: string;
      base?: string;
      files?: SeedFiles;
      draft?: boolean;
    },
  ): IssueRecord {
    const base = opts.base ?? repo.defaultBranch;
    if (opts.files) {
      if (!repo.branches.has(opts.head)) {
        const from = repo.branches.get(base);
        if (from) repo.branches.set(opts.head, from);
      }
      this.commit(repo, opts.head, opts.files, `Changes for ${opts.title}`, opts.user);
    }
    const issue = this.addIssue(repo, { title: opts.title, body: opts.body ?? null, user: opts.user });
    issue.pull = {
      head: opts.head,
      base,
      draft: opts.draft ?? false,
      merged: false,
      mergedAt: null,
      mergedBy: null,
      mergeCommitSha: null,
      headSha: null,
      maintainerCanModify: true,
      reviews: [],
      reviewComments: [],
    };
    return issue;
  }

  headSha(repo: RepoRecord, issue: IssueRecord): string {
    const pull = issue.pull;
    if (!pull) return '';
    return pull.headSha ?? repo.branches.get(pull.head) ?? '';
  }

  addReview(
    repo: RepoRecord,
    issue: IssueRecord,
    opts: { user: string; body?: string; state?: ReviewRecord['state'] },
  ): ReviewRecord {
    this.addUser(opts.user);
    const review: ReviewRecord = {
      id: this.nextId(),
      user: opts.user,
      body: opts.body ?? '',
      state: opts.state ?? 'COMMENTED',
      commitId: this.headSha(repo, issue),
      submittedAt: this.now(),
    };
    issue.pull?.reviews.push(review);
    return review;
  }

  addReviewComment(
    repo: RepoRecord,
    issue: IssueRecord,
    opts: {
      user: string;
      body: string;
      path: string;
      line?: number;
      reviewId?: number;
      inReplyTo?: number;
      side?: 'LEFT' | 'RIGHT';
      startLine?: number;
      startSide?: 'LEFT' | 'RIGHT';
      subjectType?: 'LINE' | 'FILE';
    },
  ): ReviewCommentRecord {
    this.addUser(opts.user);
    const comment: ReviewCommentRecord = {
      id: this.nextId(),
      reviewId: opts.reviewId ?? null,
      user: opts.user,
      body: opts.body,
      path: opts.path,
      line: opts.line ?? 1,
      commitId: this.headSha(repo, issue),
      createdAt: this.now(),
      ...(opts.inReplyTo ? { inReplyTo: opts.inReplyTo } : {}),
      ...(opts.side ? { side: opts.side } : {}),
      ...(opts.startLine
        ? { startLine: opts.startLine, startSide: opts.startSide ?? opts.side ?? 'RIGHT' }
        : {}),
      ...(opts.subjectType ? { subjectType: opts.subjectType } : {}),
    };
    issue.pull?.reviewComments.push(comment);
    return comment;
  }

  addRelease(
    repo: RepoRecord,
    opts: { tag: string; name?: string; body?: string; author: string; prerelease?: boolean },
  ): ReleaseRecord {
    const sha = repo.branches.get(repo.defaultBranch);
    if (sha && !repo.tags.has(opts.tag)) repo.tags.set(opts.tag, sha);
    const at = this.now();
    const release: ReleaseRecord = {
      id: this.nextId(),
      tag: opts.tag,
      name: opts.name ?? opts.tag,
      body: opts.body ?? '',
      draft: false,
      prerelease: opts.prerelease ?? false,
      createdAt: at,
      publishedAt: at,
      author: this.addUser(opts.author).login,
      targetCommitish: repo.defaultBranch,
    };
    repo.releases.unshift(release);
    return release;
  }

  addStatus(
    repo: RepoRecord,
    sha: string,
    opts: { state: StatusRecord['state']; context: string; description?: string; creator?: string },
  ): StatusRecord {
    const status: StatusRecord = {
      id: this.nextId(),
      state: opts.state,
      context: opts.context,
      description: opts.description ?? null,
      targetUrl: null,
      creator: this.addUser(opts.creator ?? repo.owner).login,
      createdAt: this.now(),
    };
    repo.statuses.set(sha, [...(repo.statuses.get(sha) ?? []), status]);
    return status;
  }

  /** Adds a check run by a third-party app on `sha` (completed unless `status` says otherwise). */
  addCheckRun(
    repo: RepoRecord,
    sha: string,
    opts: {
      name: string;
      conclusion?: CheckRunRecord['conclusion'];
      status?: CheckRunRecord['status'];
      title?: string;
      summary?: string;
      text?: string;
      detailsUrl?: string;
      app?: { slug: string; name: string };
    },
  ): CheckRunRecord {
    const status = opts.status ?? 'completed';
    const check: CheckRunRecord = {
      id: this.nextId(),
      name: opts.name,
      headSha: sha,
      status,
      conclusion: status === 'completed' ? (opts.conclusion ?? 'success') : null,
      startedAt: this.now(),
      completedAt: status === 'completed' ? this.now() : null,
      detailsUrl: opts.detailsUrl ?? null,
      title: opts.title ?? null,
      summary: opts.summary ?? null,
      text: opts.text ?? null,
      app: opts.app ?? { slug: 'ci-app', name: 'CI App' },
    };
    repo.checkRuns.push(check);
    return check;
  }

  /** Adds a completed workflow run with `jobs` (each with its log text). */
  addRun(
    repo: RepoRecord,
    opts: {
      name: string;
      branch?: string;
      event?: string;
      conclusion?: 'success' | 'failure';
      actor?: string;
      /** Each job's steps (name, conclusion); default one step, "Run", with the job's conclusion. */
      jobs: {
        name: string;
        conclusion?: 'success' | 'failure';
        log: string;
        steps?: { name: string; conclusion: 'success' | 'failure' }[];
      }[];
    },
  ): RunRecord {
    const branch = opts.branch ?? repo.defaultBranch;
    const id = this.nextId();
    const created = this.now();
    const run: RunRecord = {
      id,
      name: opts.name,
      path: `.github/workflows/${opts.name.toLowerCase().replace(/\W+/g, '-')}.yml`,
      workflowId: 7000 + repo.runs.length,
      runNumber: repo.runs.length + 1,
      headBranch: branch,
      headSha: repo.branches.get(branch) ?? '0'.repeat(40),
      event: opts.event ?? 'push',
      status: 'completed',
      conclusion: opts.conclusion ?? 'success',
      actor: this.addUser(opts.actor ?? repo.owner).login,
      createdAt: created,
      updatedAt: created,
      jobs: [],
    };
    run.jobs = opts.jobs.map((j) => ({
      id: this.nextId(),
      runId: id,
      name: j.name,
      status: 'completed',
      conclusion: j.conclusion ?? 'success',
      startedAt: created,
      completedAt: this.now(),
      steps: (j.steps ?? [{ name: 'Run', conclusion: j.conclusion ?? 'success' }]).map((st, i) => ({
        name: st.name,
        status: 'completed' as const,
        conclusion: st.conclusion,
        number: i + 1,
      })),
      log: j.log,
    }));
    repo.runs.unshift(run);
    return run;
  }
}
