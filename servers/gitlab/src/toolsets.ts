/**
 * The GitLab server's toolsets, declared once: `--toolsets`, `--help`, the README and the type of
 * every tool's `toolset` come from this list.
 */
import { defineToolsets, type ToolDefinition, type ToolsetName } from '@refmcp/shared';
import type { z } from '@refmcp/shared/schema';

export const TOOLSETS = defineToolsets([
  { name: 'context', description: 'Who the token belongs to; the instance version', default: true },
  {
    name: 'projects',
    description: 'Projects, files, code search, the repository tree, branches, commits and compare',
    default: true,
  },
  { name: 'issues', description: 'Issues, their notes, and labels', default: true },
  {
    name: 'merge_requests',
    description: 'Merge requests, their diffs, discussions and notes, approving and merging',
    default: true,
  },
  {
    name: 'groups',
    description: 'Code search across a group (needs advanced or exact code search on the instance)',
    default: false,
  },
  {
    name: 'work_items',
    description: 'Work item (e.g. group epic) notes over GraphQL: list threads, comment, reply',
    default: false,
  },
  {
    name: 'pipelines',
    description: 'CI/CD pipelines, jobs and job log tails; retry, cancel and create pipelines',
    default: false,
  },
]);

/** "context" | "projects" | "issues" | "merge_requests" | "groups" | "work_items" | "pipelines". */
export type GitLabToolset = ToolsetName<typeof TOOLSETS>;

/** A GitLab tool: its `toolset` is one of {@link TOOLSETS}. */
export type GitLabTool = ToolDefinition<z.ZodObject, z.ZodObject, GitLabToolset>;
