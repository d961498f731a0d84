// files.info (a Web API method, spec-checked) and the files.slack.com stand-in: downloads at each
// file's `url_private_download` to a valid token in `Authorization: Bearer` (Slack's rule for
// private file URLs), plain 404/401 otherwise. The stand-in is not part of the Web API description,
// so it runs as a plain fake beside the API (as the Drive fake's docs.google.com stand-in does).
import type { FakeReply } from '../../fake-api/index.js';
import type { FakeApi } from '../../fake-api/server.js';
import type { FakeSlack } from './fake-slack.js';
import { fail, need, requireScopes } from './http.js';
import { fileObject } from './objects.js';
import type { SlackState } from './state.js';

/** Registers files.info on the Web API. */
export function registerFileRoutes(slack: FakeSlack): void {
  const { state } = slack;
  slack.method(
    'files.info',
    (_req, args, who) => {
      requireScopes(who, ['files:read']);
      const file = state.files.get(need(args, 'file', 'file_not_found'));
      if (!file) fail('file_not_found');
      // The caller sees a file only when it is in a conversation shared with it.
      const visible = file.channels.filter((id) => state.channels.get(id)?.members.has(who.user.id));
      if (visible.length === 0) fail('file_not_found');
      const channels = visible.filter((id) => id.startsWith('C'));
      const groups = visible.filter((id) => id.startsWith('G'));
      const ims = visible.filter((id) => id.startsWith('D'));
      return {
        body: {
          ok: true,
          file: { ...fileObject(file, state), channels, groups, ims },
          comments: [],
          response_metadata: { next_cursor: '' },
        },
      };
    },
    ['files:read'],
  );
}

/** Registers the download route on `files` (the files.slack.com stand-in). */
export function registerDownloadRoutes(files: FakeApi, state: SlackState): void {
  files.route('GET', '/files-pri/:ref/download/:name', (req): FakeReply => {
    const token = /^bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
    if (!token || !state.tokens.has(token)) {
      return { status: 302, headers: { location: 'https://fake-team.slack.com/?redir=files' }, raw: '' };
    }
    const id = (req.params.ref ?? '').split('-').at(-1) ?? '';
    const file = state.files.get(id);
    if (!file) return { status: 404, headers: { 'content-type': 'text/html' }, raw: 'Not Found' };
    return {
      status: 200,
      headers: { 'content-type': file.mimetype, 'content-length': String(file.content.length) },
      raw: file.content,
    };
  });
}
