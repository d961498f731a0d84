/**
 * `--lockdown`: on public repositories, only content written by users with push access reaches
 * the model; content by anyone else is withheld with a note (a drive-by issue or comment is the
 * classic prompt-injection vector). Private repositories are not filtered: everyone who can write
 * there already has access. Push access comes from GET /repos/{o}/{r}/collaborators/{u}/permission
 * (admin, maintain, write → push), cached per repository and user for the process lifetime;
 * a failed lookup counts as "no push access" (fail closed).
 */
import { encodeSegment } from '@refmcp/shared';
import type { GitHubClient } from './github/client.js';

export class Lockdown {
  private readonly visibility = new Map<string, Promise<boolean>>();
  private readonly permissions = new Map<string, Promise<boolean>>();

  constructor(
    private readonly github: GitHubClient,
    readonly enabled: boolean,
  ) {}

  private isPublic(owner: string, repo: string, signal?: AbortSignal): Promise<boolean> {
    const key = `${owner}/${repo}`.toLowerCase();
    let known = this.visibility.get(key);
    if (!known) {
      known = this.github
        .request<{ private: boolean }>({
          path: `/repos/${encodeSegment(owner, 'owner')}/${encodeSegment(repo, 'repo')}`,
          ...(signal ? { signal } : {}),
        })
        .then((r) => !r.data.private);
      known.catch(() => this.visibility.delete(key));
      this.visibility.set(key, known);
    }
    return known;
  }

  private canPush(owner: string, repo: string, login: string, signal?: AbortSignal): Promise<boolean> {
    const key = `${owner}/${repo}/${login}`.toLowerCase();
    let known = this.permissions.get(key);
    if (!known) {
      known = this.github
        .request<{ permission: string }>({
          path: `/repos/${encodeSegment(owner, 'owner')}/${encodeSegment(repo, 'repo')}/collaborators/${encodeSegment(login, 'author')}/permission`,
          ...(signal ? { signal } : {}),
        })
        .then(
          (r) =>
            r.data.permission === 'admin' ||
            r.data.permission === 'write' ||
            r.data.permission === 'maintain',
        )
        .catch(() => false);
      this.permissions.set(key, known);
    }
    return known;
  }

  /** Whether lockdown filters owner/repo at all: it is on and the repository is public. */
  async appliesTo(owner: string, repo: string, signal?: AbortSignal): Promise<boolean> {
    return this.enabled && (await this.isPublic(owner, repo, signal));
  }

  /**
   * Whether content by `author` on owner/repo may be shown: always when lockdown is off or the
   * repository is private; otherwise only for authors with push access.
   */
  async allows(
    owner: string,
    repo: string,
    author: string | null | undefined,
    signal?: AbortSignal,
  ): Promise<boolean> {
    if (!this.enabled) return true;
    if (!(await this.isPublic(owner, repo, signal))) return true;
    if (!author) return false;
    return this.canPush(owner, repo, author, signal);
  }

  /** The text shown instead of withheld content. */
  static withheld(author: string | null | undefined, owner: string, repo: string): string {
    return `[withheld by --lockdown: @${author ?? 'unknown'} has no push access to ${owner}/${repo}]`;
  }
}
