/**
 * Issue 32, resource links: a page of files (search, recent_files, list_folder) carries a
 * `resource_link` to each file's gdrive:/// resource — at most MAX_RESOURCE_LINKS, none for folders
 * or shortcuts (resources/read refuses them) — and a link reads back as the resource.
 */
import { MAX_RESOURCE_LINKS } from '@refmcp/shared/server';
import { callChecked } from '@refmcp/test-harness';
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
