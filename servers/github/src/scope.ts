/**
 * `--repos owner/name,owner/*`: the repositories every tool is limited to, below whatever the
 * token can reach (case GH-03: a hostile issue in a public repository must not be able to steer
 * the agent into a private one). Names compare case-insensitively, as GitHub's do. Tools are
 * confined through the shared `scopedTool` (tools/common.ts `repoTool`).
 */
import { ConfigError, outOfScope, type Scope } from '@refmcp/shared';

const OWNER = /^[A-Za-z0-9](?:[A-Za-z0-9_-]{0,98}[A-Za-z0-9_])?$/;
const REPO = /^[A-Za-z0-9._-]{1,100}$/;

export class RepoScope implements Scope<[owner: string, repo: string]> {
  private constructor(
    /** Exact repositories, lower-cased "owner/name". */
    private readonly exact: ReadonlySet<string>,
    /** Owners all of whose repositories are allowed, lower-cased. */
    private readonly owners: ReadonlySet<string>,
    /** The flag's text, for messages. */
    readonly description: string,
  ) {}

  /**
   * Parses "owner/name,owner/*". Errors: ConfigError naming the bad entry (empty list, missing
   * "/", invalid owner or name, "*" anywhere but the whole name).
   */
  static parse(value: string): RepoScope {
    const entries = value
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    if (entries.length === 0) throw new ConfigError('--repos: give at least one owner/name or owner/*');
    const exact = new Set<string>();
    const owners = new Set<string>();
    for (const entry of entries) {
      const [owner, name, extra] = entry.split('/');
      if (!owner || !name || extra !== undefined || !OWNER.test(owner))
        throw new ConfigError(`--repos: "${entry}" is not owner/name or owner/*`);
      if (name === '*') owners.add(owner.toLowerCase());
      else if (REPO.test(name) && name !== '.' && name !== '..') exact.add(`${owner}/${name}`.toLowerCase());
      else throw new ConfigError(`--repos: "${entry}": invalid repository name`);
    }
    return new RepoScope(exact, owners, entries.join(','));
  }

  /** True when owner/repo is inside the scope. */
  allows(owner: string, repo: string): boolean {
    const o = owner.toLowerCase();
    return this.owners.has(o) || this.exact.has(`${o}/${repo.toLowerCase()}`);
  }

  /** True when "owner/name" (e.g. a search result's full_name) is inside the scope. */
  allowsFullName(fullName: string): boolean {
    const [owner, repo] = fullName.split('/');
    return owner !== undefined && repo !== undefined && this.allows(owner, repo);
  }

  /** Throws a ToolError, written for the model, when owner/repo is outside the scope. */
  check(owner: string, repo: string): void {
    if (!this.allows(owner, repo))
      throw outOfScope(`${owner}/${repo}`, 'repositories', '--repos', this.description);
  }

  /** Search qualifiers that confine a GitHub search to the scope ("repo:a/b user:c"), OR-ed by GitHub. */
  searchQualifiers(): string {
    return [...[...this.exact].map((r) => `repo:${r}`), ...[...this.owners].map((o) => `user:${o}`)].join(
      ' ',
    );
  }
}
