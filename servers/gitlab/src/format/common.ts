/**
 * Lenient readers of GitLab JSON (fields go missing or null freely): the shared ones, and the
 * username of a user object.
 */
import { obj, str } from '@refmcp/shared/server';

export { arr, bool, num, obj, type Raw, str } from '@refmcp/shared/server';

/** The `username` of a user object (author, assignee), or undefined. */
export const username = (v: unknown): string | undefined => str(obj(v).username);
