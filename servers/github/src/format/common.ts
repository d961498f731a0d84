/**
 * What GitHub's result formats share: the page fields of GitHub lists (the shared page fields,
 * naming GitHub) and user logins for the compact text renderings.
 */
import { pageShapeFor } from '@refmcp/shared';

/** Pagination fields of every GitHub list result. */
export const pageShape = pageShapeFor('GitHub');

/** The login of a GitHub user object, or null. */
export function login(user: unknown): string | null {
  const l = (user as { login?: unknown } | null | undefined)?.login;
  return typeof l === 'string' ? l : null;
}

/** "@login" or "@ghost" for display. */
export function at(name: string | null | undefined): string {
  return `@${name ?? 'ghost'}`;
}
