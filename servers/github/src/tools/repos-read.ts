/**
 * The repos toolset, reading: file contents, commits (list and one with its diff), branches, the
 * tree, tags and releases (searches are in repos-search.ts). Reference names and arguments kept
 * for get_file_contents and list_commits.
 */
import { compact, OPEN_WORLD_HINTS, pageFields, pageLine } from '@refmcp/shared';
import { z } from '@refmcp/shared/schema';
import { MAX_RESOURCE_LINKS, withResourceLinks } from '@refmcp/shared/server';
import { block, neutralizedField, respond, UntrustedText } from '@refmcp/shared/untrusted';
import type { Config } from '../config.js';
import { contentsLink } from '../files.js';
import { pageShape } from '../format/common.js';
import { renderFile } from '../format/pulls.js';
import {
  branchShape,
  commitDetailShape,
  commitShape,
  releaseShape,
  renderCommit,
  tagShape,
  toBranch,
  toCommit,
  toCommitDetail,
  toRelease,
  toTag,
  treeEntryShape,
} from '../format/repos.js';
import * as arg from '../names.js';
import type { GitHubTool } from '../toolsets.js';
import { listPage, repoPath, repoTool, scopeNote, withheldFor } from './common.js';
import { fileContentsTool } from './file-contents.js';
import { commitAuthorOf, withheldAtRef } from './lockdown-content.js';
import { refSegment } from './refs.js';

export function repoReadTools(config: Config): GitHubTool[] {
  const { budgets } = config;
  const scope = scopeNote(config);
  return [
    fileContentsTool(config),

    repoTool(config, {
      name: 'list_commits',
      title: 'List commits',
      toolset: 'repos',
      description: `List commits of a branch or from a sha, newest first, paged (one commit's diff: get_commit).${scope}`,
      inputSchema: z.strictObject({
        owner: arg.owner(),
        repo: arg.repo(),
        sha: arg.refName('Branch or sha to start from (default: the default branch)').optional(),
        path: arg.repoPath('Only commits touching this path').optional(),
        page: arg.page(),
        perPage: arg.perPage(),
      }),
      outputSchema: z.object({
        repository: z.string(),
        commits: z.array(commitShape),
        ...pageShape,
        ...neutralizedField,
      }),
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async ({ owner, repo, sha, path, page, perPage }, { signal }) => {
        const list = await listPage(
          config,
          { path: `${repoPath(config, owner, repo)}/commits`, query: { sha, path }, signal },
          page,
          perPage,
        );
        const text = new UntrustedText();
        // History from a ref that an unmerged fork pull request owns is withheld as a whole.
        const fromRef = sha
          ? await withheldAtRef(config, owner, repo, sha, repoPath(config, owner, repo), signal)
          : undefined;
        const commits = await Promise.all(
          list.items.map(async (c) => {
            const withheld = fromRef ?? (await withheldFor(config, owner, repo, commitAuthorOf(c), signal));
            const commit = toCommit(c, text, budgets.listBodyBytes);
            return withheld ? { ...commit, message: withheld } : commit;
          }),
        );
        return respond(
          { repository: `${owner}/${repo}`, commits, ...pageFields(list.info) },
          [
            `${owner}/${repo}${sha ? ` from ${sha}` : ''}: ${pageLine(list.info, commits.length, 'commits', 'page')}`,
            ...commits.map(renderCommit),
          ],
          text,
        );
      },
    }),

    repoTool(config, {
      name: 'get_commit',
      title: 'Get commit with diff',
      toolset: 'repos',
      description: `Get one commit: message, author, parents, stats and changed files with patches (${budgets.diffBytes / 1024} KB in all, then cut with a marker; page through the files of huge commits).${scope}`,
      inputSchema: z.strictObject({
        owner: arg.owner(),
        repo: arg.repo(),
        sha: arg.refName('Commit sha, branch or tag'),
        page: arg.page(),
        per_page: arg.perPage(300),
      }),
      outputSchema: z.object({
        repository: z.string(),
        commit: commitDetailShape,
        ...pageShape,
        ...neutralizedField,
      }),
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async ({ owner, repo, sha, page, per_page }, { signal }) => {
        const res = await listPage(
          config,
          { path: `${repoPath(config, owner, repo)}/commits/${refSegment(sha, 'sha')}`, signal },
          page,
          per_page ?? 300,
          (d) => [d],
        );
        const raw = res.data as { files?: unknown[] };
        const patchBytes = Math.max(
          2048,
          Math.floor(budgets.diffBytes / Math.max(1, raw.files?.length ?? 1)),
        );
        const text = new UntrustedText();
        const withheld = await withheldFor(config, owner, repo, commitAuthorOf(raw), signal);
        const detail = toCommitDetail(raw, text, budgets.bodyBytes, patchBytes);
        // --lockdown: the message and every patch are the commit author's text.
        const commit = withheld
          ? {
              ...detail,
              message: withheld,
              files: detail.files.map(({ patchTruncated: _cut, ...f }) =>
                f.patch === undefined ? f : { ...f, patch: withheld },
              ),
            }
          : detail;
        return respond(
          { repository: `${owner}/${repo}`, commit, ...pageFields(res.info) },
          [
            renderCommit(commit),
            commit.stats
              ? `${commit.files.length} files changed, +${commit.stats.additions}/-${commit.stats.deletions}. ${res.info.hasMore ? `More files: call again with page: ${res.info.nextPage}.` : ''}`
              : '',
            ...commit.files.map((f) => renderFile(f, true)),
          ],
          text,
        );
      },
    }),

    repoTool(config, {
      name: 'list_branches',
      title: 'List branches',
      toolset: 'repos',
      description: `List the branches of a repository with their head shas, paged.${scope}`,
      inputSchema: z.strictObject({
        owner: arg.owner(),
        repo: arg.repo(),
        page: arg.page(),
        per_page: arg.perPage(),
      }),
      outputSchema: z.object({ repository: z.string(), branches: z.array(branchShape), ...pageShape }),
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async ({ owner, repo, page, per_page }, { signal }) => {
        const list = await listPage(
          config,
          { path: `${repoPath(config, owner, repo)}/branches`, signal },
          page,
          per_page,
        );
        const text = new UntrustedText();
        const branches = list.items.map((b) => toBranch(b, text));
        return respond({ repository: `${owner}/${repo}`, branches, ...pageFields(list.info) }, [
          `${owner}/${repo}: ${pageLine(list.info, branches.length, 'branches')}`,
          ...branches.map((b) => `${b.name} ${b.sha}${b.protected ? ' (protected)' : ''}`),
        ]);
      },
    }),

    repoTool(config, {
      name: 'get_repository_tree',
      title: 'Get repository tree',
      toolset: 'repos',
      description: `List the files and directories of a repository at a branch, tag or tree sha, ${'1000'} entries per page (GitHub stops at 100,000: truncated).${scope}`,
      inputSchema: z.strictObject({
        owner: arg.owner(),
        repo: arg.repo(),
        tree_sha: arg.refName('Branch, tag or tree sha (default: the default branch)').optional(),
        recursive: z.boolean().optional().describe('Include subdirectories (default true)'),
        path_filter: arg.repoPath('Only entries under this directory').optional(),
        page: arg.page(),
        per_page: z.number().int().min(1).max(1000).optional().describe('Entries per page (default 1000)'),
      }),
      outputSchema: z.object({
        repository: z.string(),
        treeSha: z.string(),
        entries: z.array(treeEntryShape),
        truncated: z.boolean(),
        ...pageShape,
      }),
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async (
        { owner, repo, tree_sha, recursive, path_filter, page = 1, per_page = 1000 },
        { signal },
      ) => {
        const base = repoPath(config, owner, repo);
        let ref = tree_sha;
        if (!ref)
          ref = (await config.github.request<{ default_branch: string }>({ path: base, signal })).data
            .default_branch;
        const res = await config.github.request<{
          sha: string;
          truncated: boolean;
          tree: { path: string; type: string; mode: string; sha: string; size?: number }[];
        }>({
          path: `${base}/git/trees/${refSegment(ref, 'tree_sha')}`,
          query: { recursive: recursive === false ? undefined : '1' },
          signal,
        });
        const prefix = path_filter ? `${path_filter.replace(/^\/+|\/+$/g, '')}/` : '';
        const all = res.data.tree
          .filter((e) => !prefix || e.path.startsWith(prefix))
          .map((e) => compact({ path: e.path, type: e.type, mode: e.mode, sha: e.sha, size: e.size }));
        const entries = all.slice((page - 1) * per_page, page * per_page);
        const hasMore = page * per_page < all.length;
        const info = {
          page,
          perPage: per_page,
          hasMore,
          ...(hasMore ? { nextPage: page + 1 } : {}),
          lastPage: Math.max(1, Math.ceil(all.length / per_page)),
        };
        const listed = respond(
          {
            repository: `${owner}/${repo}`,
            treeSha: res.data.sha,
            entries,
            truncated: res.data.truncated,
            ...info,
          },
          [
            `${owner}/${repo} tree ${ref} (${res.data.sha}): ${pageLine(info, entries.length, 'entries')}${res.data.truncated ? ' GitHub truncated this tree (over its limit): list subdirectories by their tree sha.' : ''}`,
            ...entries.map(
              (e) =>
                `${e.type === 'tree' ? 'dir ' : 'file'} ${e.path}${e.size !== undefined ? ` (${e.size} B)` : ''}`,
            ),
          ],
        );
        // repo:// reads the default branch: the page's first files as resource links only for that tree.
        if (tree_sha) return listed;
        const text = new UntrustedText();
        return withResourceLinks(
          listed,
          entries
            .filter((e) => e.type === 'blob')
            .slice(0, MAX_RESOURCE_LINKS)
            .flatMap((e) => contentsLink(owner, repo, e.path, text.line(e.path), e.size)),
        );
      },
    }),

    repoTool(config, {
      name: 'list_tags',
      title: 'List tags',
      toolset: 'repos',
      description: `List the tags of a repository with the commit each points at, paged.${scope}`,
      inputSchema: z.strictObject({
        owner: arg.owner(),
        repo: arg.repo(),
        page: arg.page(),
        per_page: arg.perPage(),
      }),
      outputSchema: z.object({ repository: z.string(), tags: z.array(tagShape), ...pageShape }),
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async ({ owner, repo, page, per_page }, { signal }) => {
        const list = await listPage(
          config,
          { path: `${repoPath(config, owner, repo)}/tags`, signal },
          page,
          per_page,
        );
        const text = new UntrustedText();
        const tags = list.items.map((t) => toTag(t, text));
        return respond({ repository: `${owner}/${repo}`, tags, ...pageFields(list.info) }, [
          `${owner}/${repo}: ${pageLine(list.info, tags.length, 'tags')}`,
          ...tags.map((t) => `${t.name} ${t.sha}`),
        ]);
      },
    }),

    repoTool(config, {
      name: 'list_releases',
      title: 'List releases',
      toolset: 'repos',
      description: `List the releases of a repository, newest first, with their notes (cut at ${budgets.listBodyBytes / 1024} KB each), paged.${scope}`,
      inputSchema: z.strictObject({
        owner: arg.owner(),
        repo: arg.repo(),
        page: arg.page(),
        per_page: arg.perPage(),
      }),
      outputSchema: z.object({
        repository: z.string(),
        releases: z.array(releaseShape),
        ...pageShape,
        ...neutralizedField,
      }),
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async ({ owner, repo, page, per_page }, { signal }) => {
        const list = await listPage(
          config,
          { path: `${repoPath(config, owner, repo)}/releases`, signal },
          page,
          per_page,
        );
        const text = new UntrustedText();
        const releases = list.items.map((r) => toRelease(r, text, budgets.listBodyBytes));
        return respond(
          { repository: `${owner}/${repo}`, releases, ...pageFields(list.info) },
          [
            `${owner}/${repo}: ${pageLine(list.info, releases.length, 'releases')}`,
            ...releases.map(
              (r) =>
                `${r.tag} ${r.name ?? ''}${r.prerelease ? ' (prerelease)' : ''}${r.draft ? ' (draft)' : ''} · ${r.publishedAt ?? 'unpublished'} · ${r.url}\n${block(`${owner}/${repo} release ${r.tag} notes`, r.body)}`,
            ),
          ],
          text,
        );
      },
    }),

    repoTool(config, {
      name: 'get_latest_release',
      title: 'Get latest release',
      toolset: 'repos',
      description: `Get the latest published, non-prerelease release of a repository with its notes.${scope}`,
      inputSchema: z.strictObject({ owner: arg.owner(), repo: arg.repo() }),
      outputSchema: z.object({ repository: z.string(), release: releaseShape, ...neutralizedField }),
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async ({ owner, repo }, { signal }) => {
        const res = await config.github.request({
          path: `${repoPath(config, owner, repo)}/releases/latest`,
          signal,
        });
        const text = new UntrustedText();
        const release = toRelease(res.data, text, budgets.bodyBytes);
        return respond(
          { repository: `${owner}/${repo}`, release },
          [
            `${owner}/${repo} latest release ${release.tag} ${release.name ?? ''} · ${release.publishedAt} · ${release.url}`,
            block(`${owner}/${repo} release ${release.tag} notes`, release.body),
          ],
          text,
        );
      },
    }),
  ];
}
