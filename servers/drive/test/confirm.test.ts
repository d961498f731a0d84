/**
 * Issue 32: confirmation through elicitation of Drive's destructive calls, trash_file and
 * remove_permission, in both protocol eras (2025-11-25: elicitation/create while the call waits;
 * 2026-07-28: an input-required result the client fulfils and retries): only an accept reaches
 * Drive; decline and cancel change nothing and send no request; a client that cannot ask gets
 * today's behaviour, and --require-confirmation refuses it instead.
 */
import {
  answerElicitations,
  type Connection,
  type ElicitAnswer,
  type Era,
  NO_PACING,
  resultText,
  startBuiltServer,
} from '@refmcp/test-harness';
import type { FakeDrive } from '@refmcp/test-harness/fakes/drive';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CredentialFiles, credentialFiles, fakeEnv, startScene, startServer } from './support.js';

const WRITES = ['--toolsets', 'files,files_write,sharing'];

let fake: FakeDrive;
let files: CredentialFiles;
beforeAll(async () => {
  fake = await startScene();
  files = credentialFiles();
});
afterAll(() => fake.close());

/** A server whose client declares form elicitation and answers each question with the next action. */
async function asking(era: Era, answers: ElicitAnswer[], asked: string[]): Promise<Connection> {
  const conn = await startBuiltServer('drive', [...NO_PACING, ...WRITES], {
    era,
    env: fakeEnv(fake, files),
    capabilities: { elicitation: { form: {} } },
  });
  answerElicitations(conn, answers, asked);
  return conn;
}

const newFile = (id: string) =>
  fake.state.addFile({ id, name: `${id}.txt`, mimeType: 'text/plain', content: Buffer.from(id) });
const writesTo = (id: string) =>
  fake.api.requests.filter((q) => q.method !== 'GET' && q.path.startsWith(`/drive/v3/files/${id}`));

describe.each(['legacy', 'modern'] as const)('confirmation (%s era)', (era) => {
  it('trash_file: decline and cancel change nothing and reach no Drive write; accept trashes', async () => {
    const id = `CONFIRM_${era}`;
    newFile(id);
    const asked: string[] = [];
    const conn = await asking(era, ['decline', 'cancel', 'accept'], asked);
    try {
      const declined = await conn.client.callTool({ name: 'trash_file', arguments: { file_id: id } });
      expect(declined.isError).toBe(true);
      expect(resultText(declined)).toMatch(/^The user declined \(Move Drive file .*\)\. Nothing was changed/);
      const cancelled = await conn.client.callTool({ name: 'trash_file', arguments: { file_id: id } });
      expect(resultText(cancelled)).toMatch(/^The user dismissed the confirmation .*Nothing was changed/);
      expect(fake.state.files.get(id)?.trashed).toBe(false);
      expect(writesTo(id)).toEqual([]);
      const accepted = await conn.client.callTool({ name: 'trash_file', arguments: { file_id: id } });
      expect(accepted.isError, resultText(accepted)).toBeFalsy();
      expect(fake.state.files.get(id)?.trashed).toBe(true);
      expect(asked).toEqual(
        Array(3).fill(`Move Drive file ${id} to Drive's trash (restorable there for 30 days)?`),
      );
      const asIn = conn.stdoutLines().some((l) => l.includes('"inputRequests"'));
      const asRequest = conn
        .stdoutLines()
        .some((l) => l.includes('"elicitation/create"') && !l.includes('"inputRequests"'));
      expect([asIn, asRequest]).toEqual(era === 'modern' ? [true, false] : [false, true]);
    } finally {
      await conn.close();
    }
  });

  it('remove_permission: a decline keeps the grantee; an accept removes it', async () => {
    const id = `SHARED_${era}`;
    const file = newFile(id);
    file.permissions.push({
      id: `perm${era}`,
      type: 'user',
      role: 'reader',
      emailAddress: 'friend@example.com',
    });
    const asked: string[] = [];
    const conn = await asking(era, ['decline', 'accept'], asked);
    try {
      const args = { file_id: id, permission_id: `perm${era}` };
      const declined = await conn.client.callTool({ name: 'remove_permission', arguments: args });
      expect(declined.isError).toBe(true);
      expect(resultText(declined)).toContain('Nothing was changed');
      expect(file.permissions.some((p) => p.id === `perm${era}`)).toBe(true);
      const accepted = await conn.client.callTool({ name: 'remove_permission', arguments: args });
      expect(accepted.isError, resultText(accepted)).toBeFalsy();
      expect(file.permissions.some((p) => p.id === `perm${era}`)).toBe(false);
      expect(asked[0]).toBe(
        `Remove permission perm${era} from Drive file ${id} (stop sharing it with that grantee)?`,
      );
    } finally {
      await conn.close();
    }
  });
});

describe('a client that cannot ask', () => {
  it('gets today’s behaviour; with --require-confirmation the call is refused before any request', async () => {
    newFile('PLAIN1');
    const strict = await startServer(fake, files, [...WRITES, '--require-confirmation']);
    try {
      fake.api.clearRequests();
      const refused = await strict.client.callTool({ name: 'trash_file', arguments: { file_id: 'PLAIN1' } });
      expect(refused.isError).toBe(true);
      expect(resultText(refused)).toMatch(
        /cannot ask .*Nothing was changed; the operator set --require-confirmation/,
      );
      expect(fake.state.files.get('PLAIN1')?.trashed).toBe(false);
      expect(writesTo('PLAIN1')).toEqual([]);
    } finally {
      await strict.close();
    }
    const plain = await startServer(fake, files, WRITES);
    try {
      const trashed = await plain.client.callTool({ name: 'trash_file', arguments: { file_id: 'PLAIN1' } });
      expect(trashed.isError, resultText(trashed)).toBeFalsy();
      expect(fake.state.files.get('PLAIN1')?.trashed).toBe(true);
    } finally {
      await plain.close();
    }
  });
});
