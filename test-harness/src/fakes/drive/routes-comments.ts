// comments.list and replies.create of the fake Drive: a file's comment threads with what each is
// anchored to (`quotedFileContent`), their replies, and replying, resolving (`action: "resolve"`)
// and reopening (`action: "reopen"`). As Drive does, both methods refuse a call without `fields`
// ("The 'fields' parameter is required for this method").
import { randomBytes } from 'node:crypto';
import type { FakeRequest } from '../../fake-api/index.js';
import { fail } from './errors.js';
import { type FakeDrive, requireWrite } from './fake-drive.js';
import { selectFields } from './fields.js';
import { drivePage, jsonBody, lookupFile } from './http.js';
import { meUser } from './objects.js';
import type { CommentRecord, ReplyRecord } from './state.js';

function requireFields(req: FakeRequest): string {
  const fields = req.query.get('fields');
  if (!fields)
    fail(400, 'required', "The 'fields' parameter is required for this method.", { location: 'fields' });
  return fields;
}

const person = (name: string, email: string) => ({
  kind: 'drive#user',
  displayName: name,
  emailAddress: email,
  me: email === meUser().emailAddress,
});

function replyJson(r: ReplyRecord): Record<string, unknown> {
  return {
    kind: 'drive#reply',
    id: r.id,
    createdTime: r.createdTime,
    modifiedTime: r.createdTime,
    author: person(r.author, r.email),
    content: r.content,
    htmlContent: r.content,
    deleted: false,
    ...(r.action ? { action: r.action } : {}),
  };
}

function commentJson(c: CommentRecord): Record<string, unknown> {
  return {
    kind: 'drive#comment',
    id: c.id,
    createdTime: c.createdTime,
    modifiedTime: c.createdTime,
    author: person(c.author, c.email),
    content: c.content,
    htmlContent: c.content,
    deleted: false,
    resolved: c.resolved,
    ...(c.quoted ? { quotedFileContent: { mimeType: 'text/html', value: c.quoted } } : {}),
    ...(c.anchor ? { anchor: c.anchor } : {}),
    replies: c.replies.map(replyJson),
  };
}

export function registerCommentRoutes(drive: FakeDrive): void {
  const { state } = drive;

  drive.route('GET', '/drive/v3/files/:fileId/comments', (req) => {
    const fields = requireFields(req);
    const file = lookupFile(state, req, req.params.fileId as string, false);
    const all = (file.comments ?? []).filter((c) => !c.deleted);
    const page = drivePage(req, all, 20, 100);
    const full = {
      kind: 'drive#commentList',
      comments: page.items.map(commentJson),
      ...(page.next ? { nextPageToken: page.next } : {}),
    };
    return { body: selectFields(full, 'CommentList', fields, fields) };
  });

  drive.route('POST', '/drive/v3/files/:fileId/comments/:commentId/replies', (req, who) => {
    requireWrite(who);
    const fields = requireFields(req);
    const file = lookupFile(state, req, req.params.fileId as string, false);
    const comment = (file.comments ?? []).find((c) => c.id === req.params.commentId && !c.deleted);
    if (!comment) fail(404, 'notFound', `Comment not found: ${req.params.commentId}.`);
    const body = jsonBody(req.body, 'Reply');
    const action = body.action === 'resolve' || body.action === 'reopen' ? body.action : undefined;
    const content = typeof body.content === 'string' ? body.content : '';
    if (!content && !action) fail(400, 'required', 'Required: content.');
    const me = meUser();
    const reply: ReplyRecord = {
      id: `AAA${randomBytes(4).toString('hex')}`,
      author: me.displayName,
      email: me.emailAddress,
      content,
      createdTime: new Date().toISOString(),
      ...(action ? { action } : {}),
    };
    comment.replies.push(reply);
    if (action) comment.resolved = action === 'resolve';
    return { body: selectFields(replyJson(reply), 'Reply', fields, fields) };
  });
}
