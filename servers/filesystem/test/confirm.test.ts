/**
 * Confirmation through elicitation, in both protocol eras (2025-11-25: elicitation/create while the
 * call waits; 2026-07-28: an input-required result the client fulfils and retries): a client that
 * declares form elicitation is asked before delete_file, an overwriting write_file and copy_file with
 * overwrite, and only an accept changes anything; a client that cannot ask gets today's behaviour;
 * --require-confirmation refuses it instead.
 */
import { lstat, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  answerElicitations,
  type Connection,
  type ElicitAnswer,
  type Era,
  resultText,
  startBuiltServer,
  tempDir,
} from '@refmcp/test-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let dir: string;
let data: string;
const cleanups: Array<() => Promise<void>> = [];

beforeAll(async () => {
  const a = await tempDir();
  const b = await tempDir('refmcp-fs-data-');
  dir = a.dir;
  data = b.dir;
  cleanups.push(a.cleanup, b.cleanup);
});
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

/** A server whose client declares form elicitation and answers each question with the next action. */
async function asking(
  era: Era,
  answers: ElicitAnswer[],
  asked: string[],
  args: string[] = [],
): Promise<Connection> {
  const conn = await startBuiltServer('filesystem', [dir, ...args], {
    era,
    env: { XDG_DATA_HOME: data },
    capabilities: { elicitation: { form: {} } },
  });
  answerElicitations(conn, answers, asked);
  return conn;
}

const exists = (p: string) =>
  lstat(p).then(
    () => true,
    () => false,
  );

describe.each(['legacy', 'modern'] as const)('confirmation (%s era)', (era) => {
  it('delete_file: accept trashes it; decline and cancel leave it, saying nothing was changed', async () => {
    const file = join(dir, `victim-${era}.txt`);
    await writeFile(file, 'v');
    const asked: string[] = [];
    const conn = await asking(era, ['decline', 'cancel', 'accept'], asked);
    try {
      const declined = await conn.client.callTool({ name: 'delete_file', arguments: { path: file } });
      expect(declined.isError).toBe(true);
      expect(resultText(declined)).toMatch(
        /^The user declined \(Move ".*victim-.*\.txt" to the trash\?.*\)\. Nothing was changed/,
      );
      expect(await exists(file)).toBe(true);
      const cancelled = await conn.client.callTool({ name: 'delete_file', arguments: { path: file } });
      expect(resultText(cancelled)).toMatch(/^The user dismissed the confirmation .*Nothing was changed/);
      expect(await exists(file)).toBe(true);
      const accepted = await conn.client.callTool({ name: 'delete_file', arguments: { path: file } });
      expect(accepted.isError).toBeFalsy();
      expect(await exists(file)).toBe(false);
      expect(asked).toEqual(Array(3).fill(`Move "${file}" to the trash? It can be restored from there.`));
      expect(conn.era).toBe(era);
      // 2026-07-28 asks with an input-required result; 2025-11-25 with a request of its own.
      const asIn = conn.stdoutLines().some((l) => l.includes('"inputRequests"'));
      const asRequest = conn
        .stdoutLines()
        .some((l) => l.includes('"elicitation/create"') && !l.includes('"inputRequests"'));
      expect([asIn, asRequest]).toEqual(era === 'modern' ? [true, false] : [false, true]);
    } finally {
      await conn.close();
    }
  });

  it('write_file asks only to overwrite; copy_file only with overwrite: true', async () => {
    const asked: string[] = [];
    const conn = await asking(era, ['decline', 'decline'], asked);
    try {
      const file = join(dir, `w-${era}.txt`);
      expect(
        (await conn.client.callTool({ name: 'write_file', arguments: { path: file, content: 'one' } }))
          .isError,
      ).toBeFalsy();
      expect(asked).toEqual([]);
      const over = await conn.client.callTool({
        name: 'write_file',
        arguments: { path: file, content: 'two' },
      });
      expect(over.isError).toBe(true);
      expect(await readFile(file, 'utf8')).toBe('one');
      expect(asked).toEqual([`Overwrite "${file}"? Its whole content is replaced.`]);
      const copy = join(dir, `c-${era}.txt`);
      expect(
        (await conn.client.callTool({ name: 'copy_file', arguments: { source: file, destination: copy } }))
          .isError,
      ).toBeFalsy();
      const replace = await conn.client.callTool({
        name: 'copy_file',
        arguments: { source: file, destination: copy, overwrite: true },
      });
      expect(replace.isError).toBe(true);
      expect(asked).toHaveLength(2);
    } finally {
      await conn.close();
    }
  });
});

describe('a client that cannot ask', () => {
  it('gets today’s behaviour; with --require-confirmation the call is refused', async () => {
    const file = join(dir, 'plain.txt');
    await writeFile(file, 'p');
    const strict = await startBuiltServer('filesystem', [dir, '--require-confirmation'], {
      env: { XDG_DATA_HOME: data },
    });
    try {
      const refused = await strict.client.callTool({ name: 'delete_file', arguments: { path: file } });
      expect(refused.isError).toBe(true);
      expect(resultText(refused)).toMatch(
        /cannot ask .*Nothing was changed; the operator set --require-confirmation/,
      );
      expect(await exists(file)).toBe(true);
    } finally {
      await strict.close();
    }
    const plain = await startBuiltServer('filesystem', [dir], { env: { XDG_DATA_HOME: data } });
    try {
      const done = await plain.client.callTool({ name: 'delete_file', arguments: { path: file } });
      expect(done.isError).toBeFalsy();
      expect(await exists(file)).toBe(false);
    } finally {
      await plain.close();
    }
  });

  it('--require-confirmation still lets a client that can ask go ahead on accept', async () => {
    const file = join(dir, 'strict-accept.txt');
    await writeFile(file, 's');
    const asked: string[] = [];
    const conn = await asking('legacy', ['accept'], asked, ['--require-confirmation']);
    try {
      expect(
        (await conn.client.callTool({ name: 'delete_file', arguments: { path: file } })).isError,
      ).toBeFalsy();
      expect(asked).toHaveLength(1);
      expect(await exists(file)).toBe(false);
    } finally {
      await conn.close();
    }
  });
});
