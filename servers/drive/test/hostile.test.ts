/**
 * Hostile-user and hostile-model attacks on the built server against the fake Drive: secrets a
 * refresh brings, export links that redirect off Google, sharing arguments that do not match the
 * grantee type, malformed text in queries, and the --folders roots themselves.
 */
import { callChecked } from '@refmcp/test-harness';
import { type FakeDrive, ROOT_ID } from '@refmcp/test-harness/fakes/drive';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CredentialFiles,
  credentialFiles,
  EXPIRED_TOKEN,
  SCENE,
  startScene,
  startServer,
  structured,
} from './support.js';

let fake: FakeDrive;
beforeAll(async () => {
  fake = await startScene();
});
afterAll(() => fake.close());

describe('ALL-03 a refreshed access token is a secret too', () => {
  it('ALL-03 the token a refresh brings is scrubbed from tool results, resources/read and stderr (library debug logs too)', async () => {
    const files: CredentialFiles = credentialFiles(EXPIRED_TOKEN());
    // google-auth-library's own debug log prints the token endpoint's answer on stderr.
    const conn = await startServer(fake, files, [], { env: { GOOGLE_SDK_NODE_LOGGING: '*' } });
    try {
      expect((await callChecked(conn, 'search', { query: 'report' })).isError).toBeFalsy();
      const fresh = String(files.readToken().access_token);
      expect(fresh).not.toBe(SCENE.expiredToken);
      const record = fake.state.files.get('TEXT1');
      if (!record) throw new Error('no TEXT1');
      const before = record.content;
      record.content = Buffer.from(`echoed: ${fresh}\n`);
      try {
        const read = await callChecked(conn, 'read_file', { file_id: 'TEXT1' });
        expect(read.text).toContain('echoed:');
        expect(read.text).not.toContain(fresh);
        expect(JSON.stringify(read.structuredContent)).not.toContain(fresh);
        const resource = (await conn.client.request({
          method: 'resources/read',
          params: { uri: 'gdrive:///TEXT1' },
        } as never)) as { contents: Array<{ text?: string }> };
        expect(resource.contents[0]?.text).toContain('echoed:');
        expect(JSON.stringify(resource)).not.toContain(fresh);
        expect(conn.stderr()).toContain('[redacted]');
        for (const secret of [fresh, SCENE.refreshToken, SCENE.clientSecret])
          expect(conn.stderr()).not.toContain(secret);
      } finally {
        record.content = before;
      }
    } finally {
      await conn.close();
    }
  });
});

describe('export links', () => {
  it('DR-09 an export link that redirects off Google is not followed', async () => {
    const files = credentialFiles();
    const conn = await startServer(fake, files);
    try {
      fake.api.inject({
        status: 403,
        body: {
          error: {
            code: 403,
            message: 'This file is too large to be exported.',
            errors: [{ reason: 'exportSizeLimitExceeded', domain: 'global', message: 'too large' }],
          },
        },
        match: (req) => req.path === '/drive/v3/files/DOC1/export',
      });
      fake.docs.inject({
        status: 302,
        headers: { location: 'https://evil.example.com/steal' },
        match: (req) => req.path.includes('/export/Export'),
      });
      const r = await callChecked(conn, 'read_file', { file_id: 'DOC1' });
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(/redirect/i);
      expect(r.text).toContain('evil.example.com');
      expect(r.text).not.toContain(SCENE.accessToken);
    } finally {
      await conn.close();
    }
  });
});

describe('export links off Google', () => {
  it('DR-09 export links on a lookalike host or plain http are never fetched', async () => {
    const files = credentialFiles();
    const conn = await startServer(fake, files);
    try {
      for (const link of [
        'https://docs.google.com.evil.example/feeds/download/documents/export/Export?id=DOC1',
        'https://evilgoogle.com/export?id=DOC1',
        'http://docs.google.com/feeds/download/documents/export/Export?id=DOC1',
        'https://docs.google.com@evil.example/export',
      ]) {
        fake.api.inject({
          status: 403,
          body: {
            error: {
              code: 403,
              message: 'This file is too large to be exported.',
              errors: [{ reason: 'exportSizeLimitExceeded', domain: 'global', message: 'too large' }],
            },
          },
          match: (req) => req.path === '/drive/v3/files/DOC1/export',
        });
        fake.api.inject({
          status: 200,
          body: { exportLinks: { 'text/markdown': link } },
          match: (req) => req.path === '/drive/v3/files/DOC1' && req.query.get('fields') === 'exportLinks',
        });
        fake.docs.clearRequests();
        const r = await callChecked(conn, 'read_file', { file_id: 'DOC1' });
        expect(r.isError, link).toBe(true);
        expect(r.text).toContain('10 MB export limit');
        expect(fake.docs.requests).toHaveLength(0);
      }
    } finally {
      await conn.close();
    }
  });
});

describe('sharing', () => {
  it('share_file refuses an email_address or domain the grantee type would ignore; it is annotated destructive', async () => {
    const files = credentialFiles();
    const conn = await startServer(fake, files, ['--toolsets', 'files,sharing']);
    try {
      const tools = await conn.client.listTools();
      const share = tools.tools.find((t) => t.name === 'share_file');
      expect(share?.annotations?.destructiveHint).toBe(true);
      for (const args of [
        { type: 'anyone', role: 'reader', email_address: 'bob@example.com' },
        { type: 'domain', role: 'writer', domain: 'example.com', email_address: 'bob@example.com' },
        { type: 'user', role: 'reader', email_address: 'bob@example.com', domain: 'example.com' },
        { type: 'anyone', role: 'writer', domain: 'example.com' },
      ]) {
        fake.api.clearRequests();
        const r = await callChecked(conn, 'share_file', { file_id: 'TEXT1', ...args });
        expect(r.isError, JSON.stringify(args)).toBe(true);
        expect(r.text).toMatch(/email_address|domain/);
        expect(fake.api.requests.some((q) => q.method === 'POST' && q.path.includes('/permissions'))).toBe(
          false,
        );
      }
    } finally {
      await conn.close();
    }
  });
});

describe('ALL-02 hostile query text', () => {
  it('ALL-02 DR-03 hostile query text: a lone surrogate, newlines, blank or over 1000 characters is isError with no request; quotes stay literal', async () => {
    const files = credentialFiles();
    const conn = await startServer(fake, files);
    try {
      fake.api.clearRequests();
      const r = await callChecked(conn, 'search', { query: 'a\ud800b' });
      expect(r.isError).toBe(true);
      expect(r.text).toContain('query');
      expect(fake.api.requests.filter((q) => q.path === '/drive/v3/files')).toHaveLength(0);
      for (const [query, says] of [
        ["x' or name contains '", undefined],
        ["'\\".repeat(333), undefined],
        ['two\nlines', 'control character'],
        ['\t \u3000', 'empty'],
        ['a'.repeat(1001), 'query'],
      ] as const) {
        fake.api.clearRequests();
        const r = await callChecked(conn, 'search', { query });
        const q = fake.api.requests
          .filter((x) => x.path === '/drive/v3/files')
          .at(-1)
          ?.query.get('q');
        if (says) {
          expect(r.isError, query).toBe(true);
          expect(r.text).toContain(says);
          expect(q).toBeUndefined();
        } else {
          expect(r.isError, r.text).toBeFalsy();
          const lit = `'${query.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
          expect(q).toBe(`(name contains ${lit} or fullText contains ${lit}) and trashed = false`);
        }
      }
      const ok = await callChecked(conn, 'search', { query: 'naïve 報告 🚀' });
      expect(ok.isError, ok.text).toBeFalsy();
      const q = fake.api.requests
        .filter((x) => x.path === '/drive/v3/files')
        .at(-1)
        ?.query.get('q');
      expect(q).toContain("'naïve 報告 🚀'");
    } finally {
      await conn.close();
    }
  });
});

describe('--folders roots', () => {
  it('a folder given to --folders cannot be trashed or moved, only renamed', async () => {
    const files = credentialFiles();
    const conn = await startServer(fake, files, ['--folders', 'FOLDER1,SDFOLDER', '--toolsets', 'all']);
    try {
      for (const [tool, args] of [
        ['trash_file', { file_id: 'FOLDER1' }],
        ['trash_file', { file_id: 'https://drive.google.com/drive/folders/SDFOLDER' }],
        ['move_file', { file_id: 'FOLDER1', new_parent_id: 'SDFOLDER' }],
      ] as const) {
        fake.api.clearRequests();
        const r = await callChecked(conn, tool, args);
        expect(r.isError, tool).toBe(true);
        expect(r.text).toContain('--folders');
        expect(fake.api.requests.some((q) => q.method === 'PATCH')).toBe(false);
      }
      expect(fake.state.files.get('FOLDER1')?.trashed).toBe(false);
      const renamed = await callChecked(conn, 'move_file', { file_id: 'FOLDER1', new_name: 'Reports 2' });
      expect(renamed.isError, renamed.text).toBeFalsy();
      expect(fake.state.files.get('FOLDER1')?.name).toBe('Reports 2');
      await callChecked(conn, 'move_file', { file_id: 'FOLDER1', new_name: 'Reports' });
    } finally {
      await conn.close();
    }
  });
});

describe('--folders leaks', () => {
  it('resources/list, search and list_folder show only what is inside; a shortcut to a file outside reads nothing of it', async () => {
    fake.state.addFile({
      id: 'SHORTCUT1',
      name: 'budget shortcut',
      mimeType: 'application/vnd.google-apps.shortcut',
      parents: ['FOLDER1'],
    });
    fake.state.addFile({
      id: 'TWOPARENTS',
      name: 'budget in two folders',
      mimeType: 'text/plain',
      parents: ['SDFOLDER', 'FOLDER1'],
      content: Buffer.from('both\n'),
    });
    const files = credentialFiles();
    const conn = await startServer(fake, files, ['--folders', 'FOLDER1', '--toolsets', 'all']);
    try {
      const inside = new Set(['DOC1', 'HANDBOOK1', 'SHORTCUT1', 'TWOPARENTS']);
      const listed: string[] = [];
      let cursor: string | undefined;
      do {
        const page = (await conn.client.request({
          method: 'resources/list',
          params: cursor ? { cursor } : {},
        } as never)) as { resources: Array<{ uri: string }>; nextCursor?: string };
        listed.push(...page.resources.map((r) => r.uri.slice('gdrive:///'.length)));
        cursor = page.nextCursor;
      } while (cursor);
      expect(listed.length).toBeGreaterThan(0);
      for (const id of listed) expect(inside.has(id), id).toBe(true);

      const hits = structured(await callChecked(conn, 'search', { query: 'budget' })).files as Array<{
        id: string;
      }>;
      expect(hits.map((h) => h.id).sort()).toEqual(['SHORTCUT1', 'TWOPARENTS']);
      const children = structured(await callChecked(conn, 'list_folder', { folder_id: 'FOLDER1' }))
        .files as Array<{ id: string }>;
      for (const c of children) expect(inside.has(c.id), c.id).toBe(true);

      fake.api.clearRequests();
      const viaShortcut = await callChecked(conn, 'read_file', { file_id: 'SHORTCUT1' });
      expect(viaShortcut.isError).toBe(true);
      expect(
        fake.api.requests.some((q) => q.query.get('alt') === 'media' || q.path.endsWith('/export')),
      ).toBe(false);
      const both = await callChecked(conn, 'read_file', { file_id: 'TWOPARENTS' });
      expect(both.text).toContain('both');
      for (const uri of ['gdrive:///SHEET1', 'gdrive:///root', 'gdrive:///SDFILE1'])
        await expect(
          conn.client.request({ method: 'resources/read', params: { uri } } as never),
        ).rejects.toThrow(/--folders/);
      const out = await callChecked(conn, 'move_file', { file_id: 'SDFILE1', new_parent_id: 'FOLDER1' });
      expect(out.isError).toBe(true);
      expect(fake.state.files.get('SDFILE1')?.parents).toEqual(['SDFOLDER']);
    } finally {
      await conn.close();
    }
  });
});

describe('--folders after a move elsewhere', () => {
  it('a file moved out of the folders (outside this server) is refused again within seconds', async () => {
    fake.state.addFile({
      id: 'MOVEDOUT',
      name: 'leaving.txt',
      mimeType: 'text/plain',
      parents: ['FOLDER1'],
      content: Buffer.from('secret plans\n'),
    });
    const files = credentialFiles();
    const conn = await startServer(fake, files, ['--folders', 'FOLDER1']);
    try {
      expect((await callChecked(conn, 'read_file', { file_id: 'MOVEDOUT' })).text).toContain('secret plans');
      const record = fake.state.files.get('MOVEDOUT');
      if (!record) throw new Error('no MOVEDOUT');
      record.parents = [ROOT_ID];
      await new Promise((resolve) => setTimeout(resolve, 2_100));
      const again = await callChecked(conn, 'read_file', { file_id: 'MOVEDOUT' });
      expect(again.isError).toBe(true);
      expect(again.text).toContain('--folders');
      expect(again.text).not.toContain('secret plans');
    } finally {
      await conn.close();
    }
  });
});

describe('read_file windows', () => {
  it('offsets inside a UTF-8 character start and end at whole ones; past the end is isError', async () => {
    const text = `a${'é'.repeat(131072)}`;
    fake.state.addFile({
      id: 'UTF8TEXT',
      name: 'accents.txt',
      mimeType: 'text/plain',
      content: Buffer.from(text),
    });
    fake.state.addFile({
      id: 'UTF8BIG',
      name: 'more accents.txt',
      mimeType: 'text/plain',
      content: Buffer.from(`a${'é'.repeat(524288)}`),
    });
    const files = credentialFiles();
    const conn = await startServer(fake, files);
    try {
      const first = await callChecked(conn, 'read_file', { file_id: 'UTF8TEXT' });
      const one = structured(first) as { content: string; nextOffset: number };
      expect(one.nextOffset).toBe(262143);
      const second = await callChecked(conn, 'read_file', { file_id: 'UTF8TEXT', offset: one.nextOffset });
      const two = structured(second) as { content: string; nextOffset?: number; offset: number };
      expect(two.nextOffset).toBeUndefined();
      expect(one.content + two.content).toBe(text);
      const resource = (await conn.client.request({
        method: 'resources/read',
        params: { uri: 'gdrive:///UTF8BIG' },
      } as never)) as { contents: Array<{ text: string }> };
      expect(resource.contents[0]?.text).not.toContain('\ufffd');
      expect(resource.contents[0]?.text).toContain('offset: 1048575');

      const inside = structured(await callChecked(conn, 'read_file', { file_id: 'UTF8TEXT', offset: 2 }));
      expect(inside.offset).toBe(3);
      expect(String(inside.content).startsWith('é')).toBe(true);
      expect(String(inside.content)).not.toContain('\ufffd');

      const past = await callChecked(conn, 'read_file', { file_id: 'TEXT1', offset: 1e12 });
      expect(past.isError).toBe(true);
      expect(past.text).toContain('offset: 1000000000000 is at or past the end');
      const lines = await callChecked(conn, 'read_file', { file_id: 'TEXT1', start_line: 1e9 });
      expect(lines.isError).toBe(true);
      expect(lines.text).toContain('start_line: 1000000000 is past the last line');
      const last = await callChecked(conn, 'read_file', { file_id: 'TEXT1', start_line: 3, line_count: 5 });
      expect(structured(last)).toMatchObject({ content: 'line 3\n', startLine: 3, endLine: 4 });
    } finally {
      await conn.close();
    }
  });
});

describe('rate limits', () => {
  it('a 429 or 403 rateLimitExceeded with a Retry-After of 100000 s is isError at once, saying when to retry', async () => {
    const files = credentialFiles();
    const conn = await startServer(fake, files);
    try {
      for (const status of [429, 403] as const) {
        fake.rateLimit({
          status,
          reason: 'rateLimitExceeded',
          retryAfter: 100000,
          match: (req) => req.path === '/drive/v3/files',
        });
        fake.api.clearRequests();
        const r = await callChecked(conn, 'search', { query: 'report' });
        expect(r.isError).toBe(true);
        // Answered from the first refusal: no retry after any wait, however short.
        expect(fake.api.requests.filter((q) => q.path === '/drive/v3/files')).toHaveLength(1);
        expect(r.text).toContain(`${status} (rateLimitExceeded)`);
        expect(r.text).toMatch(/Retry after \S+ \(in 27\.\d h, from retry-after\)/);
      }
      expect((await callChecked(conn, 'search', { query: 'report' })).isError).toBeFalsy();
    } finally {
      await conn.close();
    }
  });
});
