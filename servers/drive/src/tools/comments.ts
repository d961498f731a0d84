/**
 * Comments: list_comments (read: each thread with what it is anchored to and its replies) and
 * reply_to_comment (toolset `files_write`, opt-in: reply, resolve or reopen a thread). Both are
 * confined to --folders before any request; the reply is not served under --read-only.
 */
import type { drive_v3 } from '@googleapis/drive';
import { z } from '@refmcp/shared/schema';
import { OPEN_WORLD_HINTS, ToolError } from '@refmcp/shared/server';
import { neutralizedField, respond, UntrustedText } from '@refmcp/shared/untrusted';
import { readThreads, threadLines } from '../comments.js';
import type { Config } from '../config.js';
import { fileIdArg, fileIdOf } from '../names.js';
import type { DriveTool } from '../toolsets.js';
import { fileTool, scopeNote } from './common.js';

const threadShape = z.object({
  id: z.string(),
  author: z.string(),
  content: z.string(),
  quoted: z.string().optional().describe('The text the comment is anchored to'),
  resolved: z.boolean(),
  createdTime: z.string().optional(),
  replies: z.array(
    z.object({ id: z.string(), author: z.string(), content: z.string(), action: z.string().optional() }),
  ),
});

export function commentTools(config: Config): DriveTool[] {
  const scope = scopeNote(config);
  const { drive } = config;
  return [
    fileTool(config, (a: { file_id: string }) => a.file_id, 'file_id', {
      name: 'list_comments',
      title: 'List comments',
      toolset: 'files',
      description: `A file's comment threads: quoted text, replies, resolved or open.${scope}`,
      inputSchema: z.strictObject({ file_id: fileIdArg() }),
      outputSchema: z.object({ comments: z.array(threadShape), more: z.boolean(), ...neutralizedField }),
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async ({ file_id }, { signal }) => {
        const id = fileIdOf(file_id);
        const t = new UntrustedText();
        const { threads, more } = await readThreads(config, id, t, signal);
        const open = threads.filter((th) => !th.resolved).length;
        return respond(
          { comments: threads, more },
          [
            `${threads.length} comment threads on ${id} (${open} open)${more ? '; more exist, not shown' : ''}.`,
            ...threads.flatMap((th) => threadLines(th)),
          ],
          t,
        );
      },
    }),
    fileTool(config, (a: { file_id: string }) => a.file_id, 'file_id', {
      name: 'reply_to_comment',
      title: 'Reply to comment',
      toolset: 'files_write',
      description: `Reply to a comment thread, and/or resolve or reopen it.${scope}`,
      inputSchema: z.strictObject({
        file_id: fileIdArg(),
        comment_id: z
          .string()
          .min(1)
          .max(200)
          .regex(/^[\w-]+$/)
          .describe('From list_comments'),
        content: z.string().max(10_000).optional().describe('Reply text'),
        action: z.enum(['resolve', 'reopen']).optional(),
      }),
      outputSchema: z.object({ commentId: z.string(), replyId: z.string(), action: z.string().optional() }),
      annotations: OPEN_WORLD_HINTS.additive,
      handler: async ({ file_id, comment_id, content, action }, { signal }) => {
        if (!content?.trim() && !action) throw new ToolError('give content, action, or both');
        const id = fileIdOf(file_id);
        const res = await drive.call<drive_v3.Schema$Reply>(
          'POST',
          `replies.create ${id}`,
          (o) =>
            drive.api.replies.create(
              {
                fileId: id,
                commentId: comment_id,
                fields: 'id,action',
                requestBody: { ...(content ? { content } : {}), ...(action ? { action } : {}) },
              },
              o,
            ),
          signal,
        );
        const replyId = res.data.id ?? '';
        return respond({ commentId: comment_id, replyId, ...(action ? { action } : {}) }, [
          `${action === 'resolve' ? 'Resolved' : action === 'reopen' ? 'Reopened' : 'Replied to'} comment ${comment_id} on ${id}${content && action ? ' with a reply' : ''} (reply ${replyId}).`,
        ]);
      },
    }),
  ];
}
