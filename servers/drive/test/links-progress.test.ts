/**
 * Issue 32. Resource links: a page of files (search, recent_files, list_folder) carries a
 * `resource_link` to each file's gdrive:/// resource — at most MAX_RESOURCE_LINKS, none for folders
 * or shortcuts (resources/read refuses them) — and a link reads back as the resource. Progress:
 * read_file heartbeats while the file downloads, only to a call with a progressToken, and a cancel
 * mid-download ends the call.
 */
import { MAX_RESOURCE_LINKS } from '@refmcp/shared/server';
import { callChecked, cancelAtBeat } from '@refmcp/test-harness';
import { addManyFiles } from '@refmcp/test-harness/fakes/drive';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSession, type Session } from './support.js';

let session: Session;
let conn: Session['conn'];
beforeAll(async () => {
  session = await openSession();
  ({ conn } = session);
  addManyFiles(session.fake, 30, 'linked-');
});
afterAll(() => session?.close());

type Block = { type: string; uri?: string; name?: string; mimeType?: string };
const links = (r: { content?: unknown }) =>
  ((r.content ?? []) as Block[]).filter((b) => b.type === 'resource_link');

describe('resource links', () => {
  it("search hits link to their gdrive:/// resources, which read back the file's text", async () => {
    const r = await callChecked(conn, 'search', { query: 'notes report' });
    const link = links(r).find((l) => l.name === 'notes report.txt');
    expect(link).toMatchObject({ type: 'resource_link', mimeType: 'text/plain' });
    expect(link?.uri).toMatch(/^gdrive:\/\/\/[\w-]+$/);
    const read = await conn.client.readResource({ uri: link?.uri ?? '' });
    expect(read.contents[0]?.uri).toBe(link?.uri);
    expect(read.contents[0]).toHaveProperty('text');
  });

  it('a page of many hits carries at most MAX_RESOURCE_LINKS links, in result order', async () => {
    const r = await callChecked(conn, 'search', { query: 'linked-', limit: 25 });
    const names = (r.structuredContent as { files: { name: string }[] }).files.map((f) => f.name);
    expect(names.length).toBe(25);
    expect(links(r).map((l) => l.name)).toEqual(names.slice(0, MAX_RESOURCE_LINKS));
  });

  it('folders get no link; the files of a folder do', async () => {
    const root = await callChecked(conn, 'search', { query: 'Reports' });
    const files = (root.structuredContent as { files: { id: string; mimeType: string }[] }).files;
    const folder = files.find((f) => f.id === 'FOLDER1');
    expect(folder?.mimeType).toBe('application/vnd.google-apps.folder');
    expect(links(root).map((l) => l.uri)).not.toContain('gdrive:///FOLDER1');
    const inside = await callChecked(conn, 'list_folder', { folder_id: 'FOLDER1' });
    expect(links(inside).map((l) => l.uri)).toContain('gdrive:///DOC1');
  });
});

describe('progress of read_file', () => {
  const progressLines = () => conn.stdoutLines().filter((l) => l.includes('"notifications/progress"'));

  it('heartbeats while the file downloads, and a cancel mid-download ends the call', async () => {
    // The bytes never arrive: only the heartbeat shows the call is alive.
    session.fake.api.inject({
      status: 200,
      hang: true,
      times: Number.POSITIVE_INFINITY,
      match: (req) => req.query.get('alt') === 'media',
    });
    try {
      const { outcome, seen } = await cancelAtBeat(conn, 'read_file', { file_id: 'TEXT1' });
      expect(outcome).toBe('aborted');
      expect(seen.map((p) => p.progress)).toEqual([0, 1]);
      expect(seen[0]?.message).toMatch(/^reading the file, \d+ s$/);
      // Messages are handled in order: once tools/list answers, the server has seen the cancellation.
      await conn.client.listTools();
      const after = progressLines().length;
      await conn.client.listTools();
      expect(progressLines().length).toBe(after);
    } finally {
      session.fake.api.resetFaults();
    }
  });

  it('sends nothing to a call without a progressToken, and the file is whole', async () => {
    const before = progressLines().length;
    const r = await callChecked(conn, 'read_file', { file_id: 'TEXT1' });
    expect(r.text).toContain('line 3');
    expect(progressLines().length).toBe(before);
  });
});
