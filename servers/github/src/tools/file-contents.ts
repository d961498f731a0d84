/**
 * get_file_contents (reference name and arguments): a directory's entries, or a file — text
 * with hidden characters neutralised (markup left intact: it is code) and cut at the file budget with a marker, images as image content, other binary files
 * as an embedded blob resource (up to 1 MB) or a note with the download URL, never decoded as
 * text. Files over 1 MB come through the raw media type.
 */
import { count, counted, OPEN_WORLD_HINTS, type ToolResult } from '@refmcp/shared';
import { z } from '@refmcp/shared/schema';
import { withResourceLinks } from '@refmcp/shared/server';
import { block, neutralizedField, respond, UntrustedText } from '@refmcp/shared/untrusted';
import type { Config } from '../config.js';
import { contentsLink, contentsUri, mimeType, readContents } from '../files.js';
import { entryShape } from '../format/repos.js';
import * as arg from '../names.js';
import type { GitHubTool } from '../toolsets.js';
import { repoPath, repoTool, scopeNote } from './common.js';
import { withheldAtRef } from './lockdown-content.js';

/** Largest binary file embedded in a result (base64 grows it by a third). */
const MAX_EMBEDDED_BINARY = 1024 * 1024;

const outputSchema = z.object({
  repository: z.string(),
  path: z.string(),
  ref: z.string().optional(),
  type: z.enum(['file', 'dir', 'symlink', 'submodule']),
  sha: z.string().optional(),
  size: count().optional(),
  encoding: z.enum(['utf-8', 'binary']).optional(),
  content: z
    .string()
    .optional()
    .describe(
      'The text of a text file, exactly as stored except hidden characters (bidi controls, tag and zero-width characters) made visible or removed; cut at the budget when truncated is true',
    ),
  truncated: z.boolean().optional(),
  entries: z.array(entryShape).optional(),
  target: z.string().optional(),
  downloadUrl: z.string().nullable().optional(),
  ...neutralizedField,
});

export function fileContentsTool(config: Config): GitHubTool {
  const { budgets } = config;
  return repoTool(config, {
    name: 'get_file_contents',
    title: 'Get file or directory contents',
    toolset: 'repos',
    description: `Get a file's contents or a directory's entries. Text up to ${budgets.fileBytes / 1024} KB (then cut), hidden characters neutralised (repo:// has the exact bytes); images as images; other binary files as a blob (up to 1 MB) or a URL. Returns its sha.${scopeNote(config)}`,
    inputSchema: z.strictObject({
      owner: arg.owner(),
      repo: arg.repo(),
      path: arg.repoPath('Path from the root ("" for the root)'),
      branch: arg.refName('Branch, tag or commit sha (default: the default branch)').optional(),
    }),
    outputSchema,
    annotations: OPEN_WORLD_HINTS.readOnly,
    handler: async ({ owner, repo, path, branch }, { signal }): Promise<ToolResult> => {
      const withheld = await withheldAtRef(
        config,
        owner,
        repo,
        branch,
        repoPath(config, owner, repo),
        signal,
      );
      const contents = await readContents(config, owner, repo, path, branch, signal);
      const base = { repository: `${owner}/${repo}`, ...(branch ? { ref: branch } : {}) };
      const where = `${owner}/${repo}:${path || '/'}${branch ? `@${branch}` : ''}`;
      // repo:// reads the default branch: what was read at another ref gets no resource link.
      const link = (p: string, size?: number) =>
        branch ? [] : contentsLink(owner, repo, p, new UntrustedText().line(p), size);
      if (contents.kind === 'dir') {
        const listed = respond({ ...base, path, type: 'dir', entries: contents.entries }, [
          `${where} — directory, ${counted(contents.entries.length, 'entries')}:`,
          ...contents.entries.map(
            (e) =>
              `${e.type === 'dir' ? 'dir ' : 'file'} ${e.path}${e.type === 'file' ? ` (${e.size} B)` : ''}`,
          ),
        ]);
        // The first files' resources (MAX_RESOURCE_LINKS), for the host to open or attach.
        return withResourceLinks(
          listed,
          contents.entries.filter((e) => e.type === 'file').flatMap((e) => link(e.path, e.size)),
        );
      }
      if (contents.kind === 'other') {
        return respond(
          {
            ...base,
            path: contents.path,
            type: contents.type === 'symlink' ? 'symlink' : 'submodule',
            sha: contents.sha,
            ...(contents.target ? { target: contents.target } : {}),
          },
          [`${where} is a ${contents.type}${contents.target ? ` → ${contents.target}` : ''}`],
        );
      }
      const facts = {
        ...base,
        path: contents.path,
        type: 'file' as const,
        sha: contents.sha,
        size: contents.size,
        downloadUrl: contents.downloadUrl,
      };
      // --lockdown: a file at a ref authored by a user without push access (a fork's head) is withheld.
      if (withheld)
        return respond({ ...facts, content: withheld }, [
          `${where} — ${contents.size} bytes, sha ${contents.sha}: ${withheld}`,
        ]);
      if (contents.text !== undefined) {
        const text = new UntrustedText();
        const more = `the file is ${contents.size} bytes; read the rest through the resource ${contentsUri(owner, repo, path)} or ${contents.downloadUrl ?? 'its download URL'}`;
        const content = text.code(contents.text, budgets.fileBytes, more);
        const truncated = Buffer.byteLength(contents.text) > budgets.fileBytes;
        return withResourceLinks(
          respond(
            { ...facts, encoding: 'utf-8', content, ...(truncated ? { truncated } : {}) },
            [
              `${where} — ${contents.size} bytes, sha ${contents.sha}${truncated ? ', truncated' : ''}`,
              block(`file ${where}`, content),
            ],
            text,
          ),
          link(contents.path, contents.size),
        );
      }
      const mime = mimeType(path, false);
      const structured = { ...facts, encoding: 'binary' as const };
      const summary = `${where} — binary file (${mime}), ${contents.size} bytes, sha ${contents.sha}; not decoded as text.`;
      if (contents.bytes.length > MAX_EMBEDDED_BINARY)
        return withResourceLinks(
          respond(structured, [
            `${summary} Too large to embed (over ${MAX_EMBEDDED_BINARY} bytes): download it from ${contents.downloadUrl ?? 'GitHub'}.`,
          ]),
          link(contents.path, contents.size),
        );
      const result = respond(structured, [
        `${summary} ${mime.startsWith('image/') ? 'The image follows.' : 'The bytes follow as a blob resource.'}`,
      ]);
      const data = contents.bytes.toString('base64');
      result.content.push(
        mime.startsWith('image/') && mime !== 'image/svg+xml'
          ? { type: 'image', data, mimeType: mime }
          : {
              type: 'resource',
              resource: { uri: contentsUri(owner, repo, path), mimeType: mime, blob: data },
            },
      );
      return result;
    },
  });
}
