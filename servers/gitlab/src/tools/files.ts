/**
 * Files (reference names and arguments): get_file_contents (a file, or a directory's listing —
 * the reference promised it and only read files), create_or_update_file (POST to create, PUT to
 * update, a move through the commits API), push_files (one commit; each action `create` or
 * `update` by whether the file exists on the branch — the reference sent every one as `create`).
 */
import {
  compact,
  OPEN_WORLD_HINTS,
  pageFields,
  pageLine,
  pageShapeFor,
  ToolError,
  truncationMarker,
} from '@refmcp/shared';
import { z } from '@refmcp/shared/schema';
import { block, neutralizedField, respond, UntrustedText } from '@refmcp/shared/untrusted';
import type { Config } from '../config.js';
import { fileText } from '../files.js';
import { entryShape, toEntry } from '../format/repo.js';
import { isStatus } from '../gitlab/client.js';
import * as arg from '../names.js';
import type { GitLabTool } from '../toolsets.js';
import { projectBase, projectTool, scopeNote } from './common.js';

/**
 * The project's default branch (GET /projects/:id), or undefined when its repository is empty
 * (`empty_repo`, or no `default_branch`: GitLab may name one before the first commit).
 */
export async function headBranch(
  config: Config,
  base: string,
  signal: AbortSignal,
): Promise<string | undefined> {
  const p = await config.gitlab.get<{ default_branch?: string | null; empty_repo?: boolean | null }>(
    base,
    undefined,
    signal,
  );
  return p?.empty_repo === true || !p?.default_branch ? undefined : p.default_branch;
}

/** {@link headBranch}, required. Errors: ToolError when the repository is empty. */
export async function defaultBranch(config: Config, base: string, signal: AbortSignal): Promise<string> {
  const head = await headBranch(config, base, signal);
  if (!head) throw new ToolError('ref: the project has no default branch (empty repository); give ref');
  return head;
}

/** True when `path` exists as a file on `ref` (GET …/files/:path; 404 → false). */
async function fileExists(config: Config, base: string, path: string, ref: string, signal: AbortSignal) {
  try {
    await config.gitlab.get(`${base}/repository/files/${arg.filePathSegment(path)}`, { ref }, signal);
    return true;
  } catch (error) {
    if (isStatus(error, 404)) return false;
    throw error;
  }
}

const contentsShape = z.object({
  project: z.string(),
  path: z.string(),
  ref: z.string(),
  type: z.string().describe('file or directory'),
  size: z.number().optional().describe('File size in bytes'),
  binary: z.boolean().optional(),
  content: z.string().optional(),
  nextOffset: z.number().optional().describe('Pass as offset to read on'),
  entries: z.array(entryShape).optional(),
  ...z.object(pageShapeFor('GitLab')).partial().shape,
  ...neutralizedField,
});

export function fileTools(config: Config): GitLabTool[] {
  const scope = scopeNote(config);
  const commitShape = z.object({ project: z.string(), branch: z.string(), commit: z.string().optional() });
  return [
    projectTool(config, {
      name: 'get_file_contents',
      title: 'Get file or directory',
      toolset: 'projects',
      description: `Read a file or list a directory. Text over ${config.budgets.fileBytes / 1024} KiB is cut (read on with offset); binary files give only their size.${scope}`,
      inputSchema: z.strictObject({
        project_id: arg.projectId(),
        file_path: arg.repoPath('Path of the file or directory'),
        ref: arg.ref('Branch, tag or commit (default: default branch)').optional(),
        offset: z
          .number()
          .int()
          .min(0)
          .max(2_147_483_647)
          .optional()
          .describe('Byte offset in the file (default 0)'),
        page: arg.page(),
        per_page: arg.perPage(),
      }),
      outputSchema: contentsShape,
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async (
        { project_id, file_path, offset = 0, page = 1, per_page = 20, ...args },
        { signal },
      ) => {
        const base = projectBase(config, project_id);
        const ref = args.ref ?? (await defaultBranch(config, base, signal));
        const dirOnly = file_path.endsWith('/') || file_path.replace(/\/+/g, '') === '';
        const text = new UntrustedText();
        if (!dirOnly) {
          try {
            const f = await config.gitlab.get<{ content?: string; size?: number }>(
              `${base}/repository/files/${arg.filePathSegment(file_path)}`,
              { ref },
              signal,
            );
            const bytes = Buffer.from(f?.content ?? '', 'base64');
            const read = fileText(bytes, offset, config.budgets.fileBytes);
            const head = { project: project_id, path: file_path, ref, type: 'file', size: read.size };
            if (read.binary)
              return respond({ ...head, binary: true }, [
                `${file_path} at ${ref} is a binary file of ${read.size} bytes; its content is not shown as text.`,
              ]);
            const content = text.code(read.text);
            const more = read.end < read.size;
            const marker = more
              ? truncationMarker(`${read.size - read.end} more bytes`, `call again with offset: ${read.end}`)
              : '';
            return respond(
              compact({ ...head, content, nextOffset: more ? read.end : undefined }),
              [
                `${file_path} at ${ref} (${read.size} bytes${read.start ? `, from byte ${read.start}` : ''}):`,
                block(`file ${file_path}`, content),
                marker,
              ],
              text,
            );
          } catch (error) {
            if (!isStatus(error, 404)) throw error;
          }
        }
        const path = arg.pathQuery(file_path || '/', 'file_path');
        let listing: Awaited<ReturnType<typeof config.gitlab.list>>;
        try {
          listing = await config.gitlab.list(
            `${base}/repository/tree`,
            { path, ref },
            page,
            per_page,
            signal,
          );
        } catch (error) {
          if (isStatus(error, 404))
            throw new ToolError(`file_path: ${file_path} does not exist at ref ${ref} in ${project_id}.`);
          throw error;
        }
        if (listing.items.length === 0 && page === 1)
          throw new ToolError(`file_path: ${file_path} does not exist at ref ${ref} in ${project_id}.`);
        const entries = listing.items.map((e) => toEntry(e, text));
        return respond(
          {
            project: project_id,
            path: file_path,
            ref,
            type: 'directory',
            entries,
            ...pageFields(listing.info),
          },
          [
            `Directory ${path || '/'} at ${ref}:`,
            ...entries.map(
              (e) => `${e.type === 'directory' ? 'dir ' : e.type === 'file' ? 'file' : e.type} ${e.path}`,
            ),
            pageLine(listing.info, entries.length, 'entries'),
          ],
          text,
        );
      },
    }),

    projectTool(config, {
      name: 'create_or_update_file',
      title: 'Create or update file',
      toolset: 'projects',
      description: `Create or replace one file on a branch, in one commit.${scope}`,
      inputSchema: z.strictObject({
        project_id: arg.projectId(),
        file_path: arg.repoPath('Path of the file'),
        content: arg.text('New content'),
        commit_message: arg.text('Commit message', 65_536),
        branch: arg.ref('Branch to commit to'),
        previous_path: arg.repoPath('Current path of the file to move').optional(),
      }),
      outputSchema: commitShape.extend({ action: z.string() }),
      annotations: OPEN_WORLD_HINTS.destructive,
      handler: async (
        { project_id, file_path, content, commit_message, branch, previous_path },
        { signal },
      ) => {
        const base = projectBase(config, project_id);
        const segment = arg.filePathSegment(file_path);
        if (previous_path !== undefined) {
          arg.filePathSegment(previous_path, 'previous_path');
          const c = await config.gitlab.write<{ id?: string } | null>(
            'POST',
            `${base}/repository/commits`,
            {
              branch,
              commit_message,
              actions: [{ action: 'move', file_path, previous_path, content }],
            },
            signal,
          );
          return respond(
            compact({ project: project_id, branch, action: 'move', commit: c?.id ?? undefined }),
            [`Moved ${previous_path} → ${file_path} on ${branch}${c?.id ? ` in commit ${c.id}` : ''}.`],
          );
        }
        const exists = await fileExists(config, base, file_path, branch, signal);
        // GitLab answers {file_path, branch} (or less): the status is the outcome.
        await config.gitlab.write(
          exists ? 'PUT' : 'POST',
          `${base}/repository/files/${segment}`,
          { branch, content, commit_message },
          signal,
        );
        const action = exists ? 'update' : 'create';
        return respond({ project: project_id, branch, action }, [
          `${exists ? 'Updated' : 'Created'} ${file_path} on ${branch}.`,
        ]);
      },
    }),

    projectTool(config, {
      name: 'push_files',
      title: 'Push files in one commit',
      toolset: 'projects',
      description: `Commit files to a branch in one commit; each is created, or updated if it exists.${scope}`,
      inputSchema: z.strictObject({
        project_id: arg.projectId(),
        branch: arg.ref('Branch to push to'),
        files: z
          .array(
            z.strictObject({
              file_path: arg.repoPath('Path of the file'),
              content: arg.text('Content of the file'),
            }),
          )
          .min(1)
          .max(100)
          .describe('Files to write'),
        commit_message: arg.text('Commit message', 65_536),
      }),
      outputSchema: commitShape.extend({
        actions: z.array(z.object({ action: z.string(), file_path: z.string() })),
      }),
      annotations: OPEN_WORLD_HINTS.destructive,
      handler: async ({ project_id, branch, files, commit_message }, { signal }) => {
        const base = projectBase(config, project_id);
        for (const [i, f] of files.entries()) arg.filePathSegment(f.file_path, `files[${i}].file_path`);
        const actions = [];
        for (const f of files) {
          const exists = await fileExists(config, base, f.file_path, branch, signal);
          actions.push({ action: exists ? 'update' : 'create', file_path: f.file_path, content: f.content });
        }
        const c = await config.gitlab.write<{ id?: string } | null>(
          'POST',
          `${base}/repository/commits`,
          { branch, commit_message, actions },
          signal,
        );
        const summary = actions.map(({ action, file_path }) => ({ action, file_path }));
        return respond(
          compact({ project: project_id, branch, commit: c?.id ?? undefined, actions: summary }),
          [
            `Committed ${files.length} file(s) to ${branch}${c?.id ? ` as ${c.id}` : ''}: ${summary.map((a) => `${a.action} ${a.file_path}`).join(', ')}.`,
          ],
        );
      },
    }),
  ];
}
