// The fake GitLab's data: users and their tokens, namespaces (users, groups, subgroups) with
// members, projects (numeric id, full path, visibility, members with access levels, secrets GitLab
// keeps in project objects), repositories, issues, merge requests with notes, discussions and
// approvals, pipelines and jobs with logs — and the seeding API tests, the demo and the bench use.
import { createHash } from 'node:crypto';
import {
  type AccessLevel,
  DEVELOPER,
  GUEST,
  type IssueRecord,
  type JobRecord,
  type JobStatus,
  type LabelRecord,
  MAINTAINER,
  type MergeRequestRecord,
  type NamespaceRecord,
  type NoteRecord,
  OWNER,
  type PipelineRecord,
  type ProjectRecord,
  REPORTER,
  type TokenRecord,
  type UserRecord,
  type Visibility,
  type WorkItemRecord,
} from './records.js';
import { type CommitRecord, Repository, type Signature, tick } from './repo.js';

export * from './records.js';

/** Seeding options of {@link GitLabState.addProject}. */
export interface ProjectSeed {
  id?: number;
  name?: string;
  description?: string | null;
  visibility?: Visibility;
  creator?: string;
  defaultBranch?: string;
  /** Files of the first commit on the default branch (none → an empty repository). */
  files?: Record<string, string | Buffer>;
  members?: Record<string, AccessLevel>;
  runnersToken?: string;
  importUrl?: string | null;
  forkedFrom?: ProjectRecord | null;
  topics?: string[];
}

const ALL_LEVELS: ReadonlyArray<number> = [0, GUEST, REPORTER, DEVELOPER, MAINTAINER, OWNER];

export class GitLabState {
  readonly users = new Map<number, UserRecord>();
  readonly tokens = new Map<string, TokenRecord>();
  readonly namespaces = new Map<number, NamespaceRecord>();
  readonly projects = new Map<number, ProjectRecord>();
  /** Work items served by GraphQL only (routes-graphql.ts). */
  readonly workItems: WorkItemRecord[] = [];
  /** Instance version and revision (`GET /version`, `/metadata`). */
  version = { version: '19.5.1-ee', revision: 'a1b2c3d4e5f', enterprise: true };
  private nextId = {
    user: 1,
    namespace: 100,
    project: 1000,
    issuable: 5000,
    note: 7000,
    pipeline: 900,
    job: 980,
    label: 60,
  };

  // ---- seeding ----------------------------------------------------------------------------

  /** Adds a user (and its personal namespace); `token` authenticates as it with `scopes` (default ["api"]). */
  addUser(username: string, opts: { name?: string; token?: string; scopes?: string[]; bot?: boolean } = {}) {
    const id = this.nextId.user++;
    const namespace = this.addNamespace(username, { kind: 'user', name: opts.name ?? username });
    const user: UserRecord = {
      id,
      username,
      name: opts.name ?? username,
      email: `${username}@example.com`,
      createdAt: tick(),
      bot: opts.bot ?? false,
      namespace,
    };
    namespace.members.set(id, OWNER);
    this.users.set(id, user);
    if (opts.token) this.tokens.set(opts.token, { userId: id, scopes: opts.scopes ?? ['api'] });
    return user;
  }

  /** Adds a group (a subgroup when `parent` is given); members by username. */
  addGroup(
    path: string,
    opts: { parent?: NamespaceRecord; visibility?: Visibility; members?: Record<string, AccessLevel> } = {},
  ): NamespaceRecord {
    const group = this.addNamespace(path, {
      kind: 'group',
      name: path,
      parent: opts.parent ?? null,
      visibility: opts.visibility ?? 'public',
    });
    for (const [login, level] of Object.entries(opts.members ?? {}))
      group.members.set(this.userId(login), level);
    return group;
  }

  private addNamespace(
    path: string,
    o: { kind: 'user' | 'group'; name: string; parent?: NamespaceRecord | null; visibility?: Visibility },
  ): NamespaceRecord {
    const ns: NamespaceRecord = {
      id: this.nextId.namespace++,
      name: o.name,
      path,
      fullPath: o.parent ? `${o.parent.fullPath}/${path}` : path,
      kind: o.kind,
      parent: o.parent ?? null,
      visibility: o.visibility ?? 'public',
      members: new Map(),
    };
    this.namespaces.set(ns.id, ns);
    return ns;
  }

  /** Adds a project in `namespace` (a full path such as "grp/sub"); the first commit holds `files`. */
  addProject(namespace: string, path: string, seed: ProjectSeed = {}): ProjectRecord {
    const ns = this.namespaceByPath(namespace);
    if (!ns) throw new Error(`no namespace ${namespace}`);
    const id = seed.id ?? this.nextId.project++;
    const creator = seed.creator ? this.userId(seed.creator) : ([...ns.members.keys()][0] ?? 1);
    const at = tick();
    const project: ProjectRecord = {
      id,
      name: seed.name ?? path,
      path,
      namespace: ns,
      description: seed.description === undefined ? null : seed.description,
      visibility: seed.visibility ?? 'public',
      creatorId: creator,
      createdAt: at,
      lastActivityAt: at,
      archived: false,
      topics: seed.topics ?? [],
      starCount: 0,
      forksCount: 0,
      members: new Map(),
      // Every project carries a recognisable runner token, so a leak shows in any result.
      runnersToken: seed.runnersToken ?? `GR1348941RUNNERSECRET${id}`,
      importUrl: seed.importUrl ?? null,
      forkedFrom: seed.forkedFrom ?? null,
      repo: new Repository(seed.defaultBranch ?? 'main'),
      issues: [],
      mergeRequests: [],
      pipelines: [],
      labels: [],
    };
    for (const [login, level] of Object.entries(seed.members ?? {}))
      project.members.set(this.userId(login), level);
    if (seed.files) this.commit(project, project.repo.defaultBranch, seed.files, 'Initial commit', creator);
    this.projects.set(id, project);
    return project;
  }

  /** Commits `files` (path → content; null deletes) on `branch` as `author` (a user id); creates the branch from `from`. */
  commit(
    project: ProjectRecord,
    branch: string,
    files: Record<string, string | Buffer | null>,
    message: string,
    author: number,
    from?: string,
  ): CommitRecord {
    const start = from ? project.repo.resolve(from) : undefined;
    const changes = new Map(
      Object.entries(files).map(([p, c]) => [p, c === null ? null : Buffer.isBuffer(c) ? c : Buffer.from(c)]),
    );
    project.lastActivityAt = tick();
    return project.repo.commit(branch, changes, message, this.signature(author), start);
  }

  /** Adds a project label (`color` default GitLab's `#6699cc`). */
  addLabel(
    project: ProjectRecord,
    name: string,
    o: { color?: string; description?: string; priority?: number } = {},
  ): LabelRecord {
    const label: LabelRecord = {
      id: this.nextId.label++,
      name,
      color: o.color ?? '#6699cc',
      description: o.description ?? null,
      priority: o.priority ?? null,
    };
    project.labels.push(label);
    return label;
  }

  /** The project's labels, with one created for every name an issue or MR carries (as GitLab does). */
  labelsOf(project: ProjectRecord): LabelRecord[] {
    for (const x of [...project.issues, ...project.mergeRequests])
      for (const name of x.labels)
        if (!project.labels.some((l) => l.name === name)) this.addLabel(project, name);
    return project.labels;
  }

  /** Adds an issue; `author` and `assignees` by username; notes as [author, body]. */
  addIssue(
    project: ProjectRecord,
    o: {
      title: string;
      description?: string | null;
      author: string;
      labels?: string[];
      assignees?: string[];
      state?: 'opened' | 'closed';
      confidential?: boolean;
      notes?: Array<[string, string]>;
    },
  ): IssueRecord {
    const at = tick();
    const issue: IssueRecord = {
      id: this.nextId.issuable++,
      iid: project.issues.length + 1,
      title: o.title,
      description: o.description ?? null,
      state: o.state ?? 'opened',
      authorId: this.userId(o.author),
      assigneeIds: (o.assignees ?? []).map((u) => this.userId(u)),
      labels: o.labels ?? [],
      createdAt: at,
      updatedAt: at,
      closedAt: o.state === 'closed' ? at : null,
      closedById: o.state === 'closed' ? this.userId(o.author) : null,
      notes: [],
      discussionLocked: false,
      confidential: o.confidential ?? false,
      dueDate: null,
    };
    project.issues.push(issue);
    for (const [author, body] of o.notes ?? []) this.addNote(issue, author, body);
    return issue;
  }

  /** Adds a merge request of `source` into `target` (default branch); notes as [author, body]. */
  addMergeRequest(
    project: ProjectRecord,
    o: {
      title: string;
      description?: string | null;
      author: string;
      source: string;
      target?: string;
      labels?: string[];
    },
  ): MergeRequestRecord {
    const at = tick();
    const mr: MergeRequestRecord = {
      id: this.nextId.issuable++,
      iid: project.mergeRequests.length + 1,
      title: o.title,
      description: o.description ?? null,
      state: 'opened',
      authorId: this.userId(o.author),
      assigneeIds: [],
      reviewerIds: [],
      labels: o.labels ?? [],
      createdAt: at,
      updatedAt: at,
      closedAt: null,
      closedById: null,
      notes: [],
      discussionLocked: false,
      sourceBranch: o.source,
      targetBranch: o.target ?? project.repo.defaultBranch,
      draft: o.title.startsWith('Draft:'),
      mergedAt: null,
      mergedById: null,
      mergeCommitSha: null,
      headSha: null,
      baseSha: null,
      approvals: [],
      squash: false,
      shouldRemoveSourceBranch: null,
    };
    project.mergeRequests.push(mr);
    return mr;
  }

  /**
   * Adds a note to an issue or merge request. `reply` joins an existing note's discussion;
   * `position` makes it a diff note (resolvable).
   */
  addNote(
    on: IssueRecord | MergeRequestRecord | WorkItemRecord,
    author: string | number,
    body: string,
    o: { reply?: NoteRecord; position?: Record<string, unknown>; system?: boolean; internal?: boolean } = {},
  ): NoteRecord {
    const at = tick();
    const id = this.nextId.note++;
    const note: NoteRecord = {
      id,
      body,
      authorId: typeof author === 'number' ? author : this.userId(author),
      system: o.system ?? false,
      createdAt: at,
      updatedAt: at,
      discussionId: o.reply?.discussionId ?? createHash('sha1').update(`note ${id}`).digest('hex'),
      individual: !o.reply && !o.position,
      ...(o.position ? { position: o.position } : {}),
      resolvable: Boolean(o.position ?? o.reply?.position),
      resolved: false,
      ...(o.internal ? { internal: true } : {}),
    };
    if (o.reply) o.reply.individual = false;
    on.notes.push(note);
    on.updatedAt = at;
    return note;
  }

  /** Adds a work item (e.g. a group epic) to the group or project at `namespacePath`; iids count per namespace. */
  addWorkItem(namespacePath: string, o: { title: string; author: string }): WorkItemRecord {
    const at = tick();
    const same = this.workItems.filter((w) => w.namespacePath.toLowerCase() === namespacePath.toLowerCase());
    const item: WorkItemRecord = {
      id: this.nextIssuableId(),
      iid: same.length + 1,
      title: o.title,
      namespacePath,
      authorId: this.userId(o.author),
      createdAt: at,
      updatedAt: at,
      notes: [],
    };
    this.workItems.push(item);
    return item;
  }

  /** Adds a pipeline on `ref` (its head commit) with jobs; ids are instance-wide. */
  addPipeline(
    project: ProjectRecord,
    o: {
      ref?: string;
      status?: JobStatus;
      user: string;
      jobs: Array<{
        id?: number;
        name: string;
        stage?: string;
        status?: JobStatus;
        log?: string | Buffer;
        /** `allow_failure`: a failure does not fail the pipeline. */
        allowFailure?: boolean;
      }>;
    },
  ): PipelineRecord {
    const ref = o.ref ?? project.repo.defaultBranch;
    const head = project.repo.resolve(ref);
    if (!head) throw new Error(`no ref ${ref}`);
    const created = tick();
    const started = tick();
    const jobs: JobRecord[] = o.jobs.map((j) => {
      const status = j.status ?? 'success';
      return {
        id: j.id ?? this.nextId.job++,
        name: j.name,
        stage: j.stage ?? 'test',
        status,
        allowFailure: j.allowFailure ?? false,
        failureReason: status === 'failed' ? 'script_failure' : null,
        log: Buffer.isBuffer(j.log) ? j.log : Buffer.from(j.log ?? `Running ${j.name}\nJob succeeded\n`),
        createdAt: created,
        startedAt: started,
        finishedAt: ['success', 'failed', 'canceled'].includes(status) ? tick() : null,
      };
    });
    const status =
      o.status ?? (jobs.some((j) => j.status === 'failed' && !j.allowFailure) ? 'failed' : 'success');
    const finished = tick();
    const pipeline: PipelineRecord = {
      id: this.nextId.pipeline++,
      iid: project.pipelines.length + 1,
      ref,
      sha: head.id,
      beforeSha: head.parentIds[0] ?? '0000000000000000000000000000000000000000',
      status,
      source: 'push',
      userId: this.userId(o.user),
      createdAt: created,
      updatedAt: finished,
      startedAt: started,
      finishedAt: finished,
      jobs,
    };
    project.pipelines.push(pipeline);
    return pipeline;
  }

  // ---- lookups ----------------------------------------------------------------------------

  userId(username: string): number {
    const user = [...this.users.values()].find((u) => u.username === username);
    if (!user) throw new Error(`no user ${username}`);
    return user.id;
  }

  user(id: number): UserRecord | undefined {
    return this.users.get(id);
  }

  namespaceByPath(fullPath: string): NamespaceRecord | undefined {
    return [...this.namespaces.values()].find((n) => n.fullPath.toLowerCase() === fullPath.toLowerCase());
  }

  /** The project `id` names: digits are the numeric id, anything else the full path (case-insensitive, as GitLab). */
  project(id: string): ProjectRecord | undefined {
    if (/^\d+$/.test(id)) return this.projects.get(Number(id));
    const wanted = id.toLowerCase();
    return [...this.projects.values()].find((p) => fullPath(p).toLowerCase() === wanted);
  }

  /** `userId`'s access level on `project`: the highest of the project's and its ancestor groups' memberships. */
  accessLevel(project: ProjectRecord, userId: number | undefined): AccessLevel {
    if (userId === undefined) return 0;
    let level: number = project.members.get(userId) ?? 0;
    for (let ns: NamespaceRecord | null = project.namespace; ns; ns = ns.parent)
      level = Math.max(level, ns.members.get(userId) ?? 0);
    return (ALL_LEVELS.includes(level) ? level : 0) as AccessLevel;
  }

  /** Whether `userId` (undefined = anonymous) sees `project` at all. */
  canSee(project: ProjectRecord, userId: number | undefined): boolean {
    if (project.visibility === 'public') return true;
    if (project.visibility === 'internal') return userId !== undefined;
    return this.accessLevel(project, userId) >= GUEST;
  }

  /** Issue or MR ids, note ids, pipeline and job ids are instance-wide. */
  nextIssuableId(): number {
    return this.nextId.issuable++;
  }

  newProjectId(): number {
    return this.nextId.project++;
  }

  signature(userId: number): Signature {
    const u = this.users.get(userId);
    return { name: u?.name ?? 'Unknown', email: u?.email ?? 'unknown@example.com' };
  }

  /** Every job of every pipeline of `project`, newest first. */
  jobs(project: ProjectRecord): Array<{ job: JobRecord; pipeline: PipelineRecord }> {
    return project.pipelines
      .flatMap((pipeline) => pipeline.jobs.map((job) => ({ job, pipeline })))
      .sort((a, b) => b.job.id - a.job.id);
  }
}

/** A project's full path, `grp/sub/proj`. */
export function fullPath(project: ProjectRecord): string {
  return `${project.namespace.fullPath}/${project.path}`;
}
