/**
 * `--projects grp/proj,grp/*`: the projects every tool is limited to, below whatever the token can
 * reach (a hostile issue in a public project must not steer the agent into a private one). `grp/*`
 * covers the group's subgroups too. Paths compare case-insensitively, as GitLab's do. Under a
 * scope, a project must be named by its path: a numeric id could name any project.
 */
import { ConfigError, outOfScope, type Scope, ToolError } from '@refmcp/shared';

const SEGMENT = /^[A-Za-z0-9_.][A-Za-z0-9_.-]*$/;

export class ProjectScope implements Scope<[projectId: string]> {
  private constructor(
    /** Exact projects, lower-cased full paths. */
    private readonly exact: ReadonlySet<string>,
    /** Groups (lower-cased full paths) all of whose projects are allowed. */
    private readonly groups: readonly string[],
    /** The flag's text, for messages. */
    readonly description: string,
  ) {}

  /** Parses "grp/proj,grp/sub/*". Errors: ConfigError naming the bad entry. */
  static parse(value: string): ProjectScope {
    const entries = value
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    if (entries.length === 0) throw new ConfigError('--projects: give at least one group/project or group/*');
    const exact = new Set<string>();
    const groups: string[] = [];
    for (const entry of entries) {
      const parts = entry.split('/');
      const wildcard = parts.at(-1) === '*';
      const names = wildcard ? parts.slice(0, -1) : parts;
      if (parts.length < 2 || !names.every((s) => SEGMENT.test(s) && s !== '.' && s !== '..'))
        throw new ConfigError(`--projects: "${entry}" is not group/project or group/*`);
      if (wildcard) groups.push(names.join('/').toLowerCase());
      else exact.add(entry.toLowerCase());
    }
    return new ProjectScope(exact, groups, entries.join(','));
  }

  /** True when the project at `fullPath` ("grp/sub/proj") is inside the scope. */
  allows(fullPath: string): boolean {
    const p = fullPath.toLowerCase();
    return this.exact.has(p) || this.groups.some((g) => p.startsWith(`${g}/`));
  }

  /**
   * True when a search of the group at `fullPath` ("grp" or "grp/sub") may run: the group lies
   * inside a `grp/*` entry (every project it can return is allowed), or an entry lies inside the
   * group (it holds allowed projects, and the results from its other projects are dropped by the
   * caller). A group unrelated to every entry is refused, so no request names it.
   */
  allowsGroup(fullPath: string): boolean {
    const g = fullPath.toLowerCase();
    const inside = (p: string) => p.startsWith(`${g}/`);
    return (
      this.groups.some((w) => w === g || g.startsWith(`${w}/`) || inside(w)) || [...this.exact].some(inside)
    );
  }

  /**
   * True when everything in the namespace at `fullPath` (a project, or a group holding work items
   * such as epics) is inside the scope: an allowed project, or a group at or inside a `grp/*`
   * entry. Unlike {@link allowsGroup}, a group that merely *contains* an allowed project is not
   * enough: a group's own work items belong to no project, so nothing could be filtered out.
   */
  allowsNamespace(fullPath: string): boolean {
    const g = fullPath.toLowerCase();
    return this.allows(g) || this.groups.some((w) => w === g || g.startsWith(`${w}/`));
  }

  /** Refuses (ToolError, before any request) a namespace {@link allowsNamespace} does not allow. */
  checkNamespace(fullPath: string): void {
    if (!this.allowsNamespace(fullPath))
      throw outOfScope(fullPath, 'projects', '--projects', this.description);
  }

  /** Refuses (ToolError) a group search {@link allowsGroup} does not allow, or a group named by number. */
  checkGroup(groupId: string): void {
    if (/^[0-9]+$/.test(groupId))
      throw new ToolError(
        `group_id ${groupId}: name the group by its path while --projects limits the projects this server may access (${this.description}).`,
      );
    if (!this.allowsGroup(groupId))
      throw new ToolError(
        `group ${groupId} holds none of the projects this server may access (--projects ${this.description}): search a group that contains them, or one project with search_project_code.`,
      );
  }

  /** True when a group or user namespace could hold allowed projects (`namespace/name`). */
  check(projectId: string): void {
    if (/^[0-9]+$/.test(projectId))
      throw new ToolError(
        `project_id ${projectId}: name the project by its path (group/project) while --projects limits the projects this server may access (${this.description}).`,
      );
    if (!this.allows(projectId)) throw outOfScope(projectId, 'projects', '--projects', this.description);
  }
}
