/**
 * The GitHub server's toolsets, declared once: `--toolsets`, `--help`, the README and the type of
 * every tool's `toolset` come from this list (a tool naming another fails to compile and at startup).
 */
import { defineToolsets, type ToolDefinition, type ToolsetName } from '@refmcp/shared';
import type { z } from '@refmcp/shared/schema';

export const TOOLSETS = defineToolsets([
  { name: 'context', description: 'Who the token belongs to and what it may do', default: true },
  {
    name: 'repos',
    description: 'Files, branches, commits, trees, tags, releases, repository search and changes',
    default: true,
  },
  { name: 'issues', description: 'Issues, their comments, labels and sub-issues', default: true },
  {
    name: 'pull_requests',
    description: 'Pull requests, their files, diffs, reviews, status and merging',
    default: true,
  },
  { name: 'users', description: 'User search', default: true },
  {
    name: 'actions',
    description: 'GitHub Actions: runs, jobs, logs, why CI is red; re-run, cancel, dispatch',
    default: false,
  },
]);

/** "context" | "repos" | "issues" | "pull_requests" | "users" | "actions". */
export type GitHubToolset = ToolsetName<typeof TOOLSETS>;

/** A GitHub tool: its `toolset` is one of {@link TOOLSETS}. */
export type GitHubTool = ToolDefinition<z.ZodObject, z.ZodObject, GitHubToolset>;
