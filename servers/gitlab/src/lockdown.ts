/**
 * `--lockdown`: on public projects, content (issue, MR and note text) by users below Developer
 * access (30) is withheld, so that anyone who can open an issue on a public project cannot
 * inject instructions. Visibility and access levels are looked up once per project and user
 * (GET /projects/:id, GET /projects/:id/members/all/:user_id) and cached for the process.
 */
import type { GitLab } from './gitlab/client.js';
import { isStatus } from './gitlab/client.js';

/** GitLab's Developer access level. */
export const DEVELOPER_ACCESS = 30;

/**
 * True when lockdown screens content of a project or namespace with this `visibility`: public, and
 * also missing or unrecognised (fail closed) — only GitLab's "internal" and "private" are exempt.
 */
export function screensVisibility(visibility: string | null | undefined): boolean {
  return visibility !== 'internal' && visibility !== 'private';
}

export class Lockdown {
  private readonly visibility = new Map<string, Promise<string>>();
  private readonly levels = new Map<string, Promise<number>>();

  constructor(
    private readonly gitlab: GitLab,
    readonly enabled: boolean,
  ) {}

  /**
   * True when `author` (a user with `id` and `username`, or null) may contribute content of project
   * `base` (its `/projects/<id>` path). Always true when lockdown is off or the project is internal or
   * private (a missing visibility counts as public: {@link screensVisibility}).
   */
  async allows(
    base: string,
    author: { id?: number } | null | undefined,
    signal: AbortSignal,
  ): Promise<boolean> {
    if (!this.enabled) return true;
    if (!screensVisibility(await this.projectVisibility(base, signal))) return true;
    if (typeof author?.id !== 'number') return false;
    return (await this.accessLevel(base, author.id, signal)) >= DEVELOPER_ACCESS;
  }

  /** The text shown instead of withheld content. */
  static withheld(author: { username?: string } | null | undefined): string {
    return `[withheld by --lockdown: ${author?.username ?? 'unknown user'} has less than Developer access to this public project]`;
  }

  private projectVisibility(base: string, signal: AbortSignal): Promise<string> {
    return cached(this.visibility, base, () =>
      this.gitlab
        .get<{ visibility?: string | null }>(base, undefined, signal)
        .then((p) => p?.visibility ?? 'unknown'),
    );
  }

  private accessLevel(base: string, userId: number, signal: AbortSignal): Promise<number> {
    return cached(this.levels, `${base} ${userId}`, () =>
      this.gitlab
        .get<{ access_level?: number }>(`${base}/members/all/${userId}`, undefined, signal)
        .then((m) => m?.access_level ?? 0)
        .catch((error) => {
          if (isStatus(error, 404)) return 0;
          throw error;
        }),
    );
  }
}

function cached<V>(map: Map<string, Promise<V>>, key: string, make: () => Promise<V>): Promise<V> {
  let value = map.get(key);
  if (!value) {
    value = make();
    value.catch(() => map.delete(key));
    map.set(key, value);
  }
  return value;
}
