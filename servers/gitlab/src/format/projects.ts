/**
 * Projects as the model sees them: an allowlist of fields, so secrets GitLab puts in project
 * objects (runners_token, credentials in import_url, the same inside forked_from_project) never
 * leave this file (case GL-03).
 */
import { compact } from '@refmcp/shared';
import { z } from '@refmcp/shared/schema';
import type { UntrustedText } from '@refmcp/shared/untrusted';
import { bool, num, obj, str } from './common.js';

export const projectShape = z.object({
  id: z.number().optional(),
  path: z.string().describe('Full path, group/subgroup/project'),
  description: z.string().optional(),
  visibility: z.string().optional(),
  defaultBranch: z.string().optional(),
  webUrl: z.string().optional(),
  forkedFrom: z.string().optional().describe('Path of the project this one was forked from'),
  archived: z.boolean().optional(),
  lastActivityAt: z.string().optional(),
});
export type Project = z.infer<typeof projectShape>;

/** The model's view of a GitLab project object (lenient; secrets dropped). */
export function toProject(raw: unknown, text: UntrustedText, descriptionBytes = 1024): Project {
  const p = obj(raw);
  const description = text.line(str(p.description), descriptionBytes);
  return compact({
    id: num(p.id),
    path: str(p.path_with_namespace) ?? str(p.path) ?? String(num(p.id) ?? '?'),
    description: description || undefined,
    visibility: str(p.visibility),
    defaultBranch: str(p.default_branch),
    webUrl: str(p.web_url),
    forkedFrom: str(obj(p.forked_from_project).path_with_namespace),
    archived: bool(p.archived) || undefined,
    lastActivityAt: str(p.last_activity_at),
  });
}

/** "grp/proj (id 42, public, default branch main): description". */
export function renderProject(p: Project): string {
  const facts = [
    p.id !== undefined ? `id ${p.id}` : '',
    p.visibility ?? '',
    p.defaultBranch ? `default branch ${p.defaultBranch}` : '',
    p.forkedFrom ? `fork of ${p.forkedFrom}` : '',
    p.archived ? 'archived' : '',
  ].filter(Boolean);
  return `${p.path} (${facts.join(', ')})${p.description ? `: ${p.description}` : ''}`;
}
