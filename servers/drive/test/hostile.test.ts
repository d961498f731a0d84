/**
 * Hostile-user and hostile-model attacks on the built server against the fake Drive: secrets a
 * refresh brings, export links that redirect off Google, sharing arguments that do not match the
 * grantee type, malformed text in queries, and the --folders roots themselves.
 */
import { callChecked } from '@refmcp/test-harness';
import type { FakeDrive } from '@refmcp/test-harness/fakes/drive';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CredentialFiles,
  credentialFiles,
  EXPIRED_TOKEN,
  SCENE,
  startScene,
  startServer,
} from './support.js';

let fake: FakeDrive;
beforeAll(async () => {
  fake = await startScene();
});
afterAll(() => fake.close());

describe('ALL-03 a refreshed access token is a secret too', () => {
  it('ALL-03 the token a refresh brings is scrubbed from tool results and resources/read', async () => {
    const files: CredentialFiles = credentialFiles(EXPIRED_TOKEN());
    const conn = await startServer(fake, files);
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
        expect(conn.stderr()).not.toContain(fresh);
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
  it('ALL-02 a lone surrogate in a query is isError naming query, with no request', async () => {
    const files = credentialFiles();
    const conn = await startServer(fake, files);
    try {
      fake.api.clearRequests();
      const started = Date.now();
      const r = await callChecked(conn, 'search', { query: 'a\ud800b' });
      expect(r.isError).toBe(true);
      expect(r.text).toContain('query');
      expect(Date.now() - started).toBeLessThan(2000);
      expect(fake.api.requests.filter((q) => q.path === '/drive/v3/files')).toHaveLength(0);
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
