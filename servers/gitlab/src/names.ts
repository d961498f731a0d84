/**
 * Argument schemas for GitLab identifiers, validated before any URL is built (cases GL-02,
 * GL-09): project ids (a number, or a `group/subgroup/project` path sent encoded whole), numeric
 * ids, file paths (encoded whole, no "." / ".." segments), refs (sent as a query value exactly),
 * and the page arguments every list shares.
 */
import { encodeSegment, ToolError } from '@refmcp/shared';
import { safeString, z } from '@refmcp/shared/schema';

/** A numeric id, or a path of two or more GitLab name segments (no empty, "." or ".." segment). */
export function isProjectId(value: string): boolean {
  if (/^[0-9]+$/.test(value)) return true;
  const segments = value.split('/');
  return segments.length >= 2 && segments.every((s) => /^[\w.][\w.-]*$/.test(s) && s !== '.' && s !== '..');
}

/**
 * The `project_id` argument. Checked by {@link isProjectId} (a refinement, so tools/list shows no
 * pattern: the description says the same to the model in fewer bytes).
 */
export const projectId = () =>
  safeString({ max: 1024 })
    .refine(isProjectId, {
      message: 'must be a numeric project id or a group/project path (no "." or ".." segments)',
    })
    .describe('ID or full path (group/project)');

/** A numeric group id, or a path of one or more GitLab name segments (no empty, "." or ".." segment). */
export function isGroupId(value: string): boolean {
  return (
    /^[0-9]+$/.test(value) ||
    value.split('/').every((s) => /^[\w.][\w.-]*$/.test(s) && s !== '.' && s !== '..')
  );
}

/** The `group_id` argument, checked by {@link isGroupId}. */
export const groupId = () =>
  safeString({ max: 1024 })
    .refine(isGroupId, {
      message: 'must be a numeric group id or a group/subgroup path (no "." or ".." segments)',
    })
    .describe('ID or full path of the group');

/** `/groups/<id>`: digits as is, a path encoded whole (`grp%2Fsub`). */
export function groupPath(id: string): string {
  if (/^[0-9]+$/.test(id)) return `/groups/${id}`;
  return `/groups/${id
    .split('/')
    .map((s) => encodeSegment(s, 'group_id'))
    .join('%2F')}`;
}

/** `/projects/<id>`: digits as is, a path encoded whole (`grp%2Fsub%2Fproj`). */
export function projectPath(id: string): string {
  if (/^[0-9]+$/.test(id)) return `/projects/${id}`;
  return `/projects/${id
    .split('/')
    .map((s) => encodeSegment(s, 'project_id'))
    .join('%2F')}`;
}

/** A repository file path encoded whole (`dir%2Fa%20b.md`), "." / ".." segments refused. */
export function filePathSegment(path: string, name = 'file_path'): string {
  const trimmed = path.replace(/^\/+/, '').replace(/\/+$/, '');
  if (!trimmed) throw new ToolError(`${name}: must not be empty`);
  return trimmed
    .split('/')
    .map((s) => {
      if (s === '') throw new ToolError(`${name}: empty path segment ("//") in ${JSON.stringify(path)}`);
      return encodeSegment(s, name);
    })
    .join('%2F');
}

/** A repository path as a query value: "." / ".." segments refused, slashes trimmed. */
export function pathQuery(path: string, name = 'path'): string {
  filePathSegment(path, name);
  return path.replace(/^\/+/, '').replace(/\/+$/, '');
}

/** A path inside the repository. */
export const repoPath = (description: string) => safeString({ max: 4096 }).describe(description);

/**
 * A branch, tag or commit sha, sent as a query value or body field exactly. Non-empty is a
 * refinement: a `minLength: 1` on every ref would cost the model bytes and tell it nothing.
 */
export const ref = (description: string) =>
  safeString({ max: 255 })
    .refine((s) => s.length > 0, { message: 'must not be empty' })
    .describe(description);

/** A positive number (an iid, a job or pipeline id, a user id); undescribed as an array's items. */
export const id = (description?: string) => {
  const schema = z.number().int().min(1).max(2_147_483_647);
  return description ? schema.describe(description) : schema;
};

/** The iid argument of an issue (`#12`) or a merge request (`!7`): its number in the project. */
export const iid = (name: 'issue_iid' | 'merge_request_iid') =>
  id(name === 'issue_iid' ? 'Issue iid (its #number)' : 'Merge request iid (its !number)');

export const page = () => z.number().int().min(1).max(10_000).optional().describe('Page number (default 1)');

export const perPage = (max = 100) =>
  z.number().int().min(1).max(max).optional().describe('Results per page (default 20)');

/** Free text written by the model (titles, bodies, messages): bounded, no NUL/lone surrogates. */
export const text = (description?: string, max = 1_048_576) =>
  description ? safeString({ max }).describe(description) : safeString({ max });
