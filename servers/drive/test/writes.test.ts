/**
 * The opt-in write toolsets (files_write, sharing) through the built server, uploads on
 * GDRIVE_API_URL (the loopback guard fails the test if any request leaves 127.0.0.1), the
 * read-only scope of the default toolset, and the --folders scope.
 */
import { blockedHosts, callChecked, loopbackGuardEnv } from '@refmcp/test-harness';
import type { FakeDrive } from '@refmcp/test-harness/fakes/drive';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CredentialFiles,
  credentialFiles,
  SCENE,
  startScene,
  startServer,
  structured,
} from './support.js';

let fake: FakeDrive;
let files: CredentialFiles;
beforeAll(async () => {
  fake = await startScene();
  files = credentialFiles();
});
afterAll(() => fake.close());

describe('files_write and sharing', () => {
  it('creates, updates, moves, renames and trashes files; uploads stay on loopback', async () => {
    const conn = await startServer(fake, files, ['--toolsets', 'files,files_write,sharing'], {
      env: loopbackGuardEnv(),
    });
    try {
      const folder = await callChecked(conn, 'create_folder', { name: 'Drafts', parent_id: 'FOLDER1' });
      expect(folder.isError, folder.text).toBeFalsy();
      const folderId = (structured(folder).file as { id: string }).id;
      const created = await callChecked(conn, 'create_file', {
        name: 'plan.md',
        content: '# Plan\n\nstep one\n',
        type: 'text/markdown',
        parent_id: folderId,
      });
      expect(created.isError, created.text).toBeFalsy();
      const id = (structured(created).file as { id: string }).id;
      const upload = fake.api.requests.filter((r) => r.path.startsWith('/upload/drive/v3/files')).at(-1);
      expect(upload?.query.get('uploadType')).toBe('multipart');
      expect((await callChecked(conn, 'read_file', { file_id: id })).text).toContain('step one');

      const updated = await callChecked(conn, 'update_file', { file_id: id, content: 'step two\n' });
      expect(updated.isError, updated.text).toBeFalsy();
      expect((await callChecked(conn, 'read_file', { file_id: id })).text).toContain('step two');

      const doc = await callChecked(conn, 'create_file', {
        name: 'Notes',
        content: '# Notes\n\nhello\n',
        type: 'text/markdown',
        as_google_doc: true,
        parent_id: folderId,
      });
      expect((structured(doc).file as { mimeType: string }).mimeType).toBe(
        'application/vnd.google-apps.document',
      );

      const moved = await callChecked(conn, 'move_file', {
        file_id: id,
        new_parent_id: 'root',
        new_name: 'final.md',
      });
      expect(moved.isError, moved.text).toBeFalsy();
      expect(fake.state.files.get(id)?.name).toBe('final.md');
      expect(fake.state.files.get(id)?.parents).toEqual(['0AMyDriveRootFolder']);

      const trashed = await callChecked(conn, 'trash_file', { file_id: id });
      expect(trashed.isError).toBeFalsy();
      expect(fake.state.files.get(id)?.trashed).toBe(true);
      expect(fake.state.files.has(id)).toBe(true);

      const shared = await callChecked(conn, 'share_file', {
        file_id: 'DOC1',
        type: 'user',
        role: 'reader',
        email_address: 'friend@example.com',
      });
      expect(shared.isError, shared.text).toBeFalsy();
      const permission = structured(shared).permission as { id: string };
      const listed = await callChecked(conn, 'list_permissions', { file_id: 'DOC1' });
      expect(listed.text).toContain('friend@example.com');
      const changed = await callChecked(conn, 'update_permission', {
        file_id: 'DOC1',
        permission_id: permission.id,
        role: 'writer',
      });
      expect(changed.isError, changed.text).toBeFalsy();
      expect(fake.state.files.get('DOC1')?.permissions.find((p) => p.id === permission.id)?.role).toBe(
        'writer',
      );
      const removed = await callChecked(conn, 'remove_permission', {
        file_id: 'DOC1',
        permission_id: permission.id,
      });
      expect(removed.isError).toBeFalsy();
      expect(blockedHosts(conn.stderr())).toEqual([]);
    } finally {
      await conn.close();
    }
  });

  it('copies a file into a folder or beside the original, with a new name or "Copy of …"', async () => {
    const conn = await startServer(fake, files, ['--toolsets', 'files,files_write']);
    try {
      const into = await callChecked(conn, 'copy_file', {
        file_id: 'DOC1',
        parent_id: 'FOLDER1',
        name: 'Report (draft)',
      });
      expect(into.isError, into.text).toBeFalsy();
      const copy = structured(into).file as { id: string; name: string; parentId: string; mimeType: string };
      expect(copy).toMatchObject({ name: 'Report (draft)', parentId: 'FOLDER1' });
      expect(copy.mimeType).toBe('application/vnd.google-apps.document');
      expect(copy.id).not.toBe('DOC1');
      const asked = fake.api.requests.filter((r) => r.path === '/drive/v3/files/DOC1/copy').at(-1);
      expect(JSON.parse(asked?.body ?? '{}')).toEqual({ parents: ['FOLDER1'], name: 'Report (draft)' });
      const original = await callChecked(conn, 'read_file', { file_id: 'DOC1' });
      expect((await callChecked(conn, 'read_file', { file_id: copy.id })).text).toContain(
        original.text
          .split('\n')
          .find((l) => l.trim().length > 20)
          ?.trim() ?? '<none>',
      );
      const beside = await callChecked(conn, 'copy_file', { file_id: 'TEXT1' });
      expect(beside.isError, beside.text).toBeFalsy();
      expect((structured(beside).file as { name: string }).name).toMatch(/^Copy of /);
      const folder = await callChecked(conn, 'copy_file', { file_id: 'FOLDER1', parent_id: 'root' });
      expect(folder.isError).toBe(true);
      expect(folder.text).toContain('cannotCopyFile');
    } finally {
      await conn.close();
    }
  });

  it('the loopback guard does see a request that leaves loopback', async () => {
    const conn = await startServer(fake, files, [], {
      env: { ...loopbackGuardEnv(), GDRIVE_API_URL: 'https://www.googleapis.com/' },
    });
    try {
      const r = await callChecked(conn, 'search', { query: 'report' });
      expect(r.isError).toBe(true);
      expect(blockedHosts(conn.stderr())).toContain('www.googleapis.com');
    } finally {
      await conn.close();
    }
  });

  it('without a write toolset the server serves no write tool; --read-only drops them too', async () => {
    for (const args of [[], ['--toolsets', 'all', '--read-only']]) {
      const conn = await startServer(fake, files, args);
      try {
        const names = (await conn.tools()).map((t) => t.name);
        expect(names).toContain('read_file');
        expect(names).not.toContain('create_file');
        expect(names).not.toContain('copy_file');
        expect(names).not.toContain('share_file');
      } finally {
        await conn.close();
      }
    }
  });

  it("a read-only token's write is isError naming the missing scope", async () => {
    const readOnly = credentialFiles({
      access_token: SCENE.readOnlyToken,
      expiry_date: Date.now() + 3_600_000,
    });
    const conn = await startServer(fake, readOnly, ['--toolsets', 'files_write']);
    try {
      const r = await callChecked(conn, 'create_folder', { name: 'x' });
      expect(r.isError).toBe(true);
      expect(r.text).toContain('403');
      expect(r.text).toContain('insufficientPermissions');
      expect(r.text).toContain('mcp-server-drive auth');
    } finally {
      await conn.close();
    }
  });
});

describe('--folders', () => {
  it('limits every tool to the folders and their descendants, refused before any content', async () => {
    const conn = await startServer(fake, files, ['--folders', 'FOLDER1,SDFOLDER', '--toolsets', 'all']);
    try {
      expect((await callChecked(conn, 'read_file', { file_id: 'DOC1' })).isError).toBeFalsy();
      expect((await callChecked(conn, 'read_file', { file_id: 'SDFILE1' })).isError).toBeFalsy();
      for (const [tool, args] of [
        ['read_file', { file_id: 'SHEET1' }],
        ['get_file_metadata', { file_id: 'TEXT1' }],
        ['list_folder', { folder_id: 'root' }],
        ['create_file', { name: 'x.txt', content: 'x' }],
        ['move_file', { file_id: 'DOC1', new_parent_id: 'root' }],
        ['copy_file', { file_id: 'SHEET1', parent_id: 'FOLDER1' }],
        ['copy_file', { file_id: 'DOC1', parent_id: 'root' }],
        ['copy_file', { file_id: 'DOC1' }],
        ['list_permissions', { file_id: 'SHEET1' }],
      ] as const) {
        fake.api.clearRequests();
        const r = await callChecked(conn, tool, args as Record<string, unknown>);
        expect(r.isError, tool).toBe(true);
        expect(r.text, tool).toContain('--folders');
        expect(r.text).not.toContain('rent,1200');
        expect(
          fake.api.requests.some(
            (q) => q.path.endsWith('/export') || q.path.endsWith('/copy') || q.query.get('alt') === 'media',
          ),
        ).toBe(false);
      }
      const search = await callChecked(conn, 'search', { query: 'report' });
      const ids = (structured(search).files as Array<{ id: string }>).map((f) => f.id);
      expect(ids).toContain('DOC1');
      expect(ids).not.toContain('SHEET1');
      expect(search.text).toContain('outside --folders');
      const resource = conn.client.request({
        method: 'resources/read',
        params: { uri: 'gdrive:///SHEET1' },
      } as never);
      await expect(resource).rejects.toThrow(/--folders/);
    } finally {
      await conn.close();
    }
  });
});
