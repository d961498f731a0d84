/**
 * The find_and_summarise prompt and completion by name: gdrive:///{fileId} completes to the ids of
 * files whose name contains what was typed, the prompt's name to their names; under --folders
 * only files inside complete. Through the built server against the fake Drive, in both eras.
 */
import type { GetPromptResult } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CredentialFiles, credentialFiles, startScene, startServer } from './support.js';

let fake: Awaited<ReturnType<typeof startScene>>;
let files: CredentialFiles;
let open: Awaited<ReturnType<typeof startServer>>;
let scoped: Awaited<ReturnType<typeof startServer>>;
let modern: Awaited<ReturnType<typeof startServer>>;
// Generous: a loaded machine must not turn a fast fake's answer into a cut-off.
const env = { MCP_COMPLETION_TIMEOUT_MS: '60000' };
beforeAll(async () => {
  fake = await startScene();
  files = credentialFiles();
  [open, scoped, modern] = await Promise.all([
    startServer(fake, files, [], { env }),
    startServer(fake, files, ['--folders', 'FOLDER1'], { env }),
    startServer(fake, files, ['--folders', 'FOLDER1'], { env, era: 'modern' }),
  ]);
});
afterAll(async () => {
  await Promise.all([open?.close(), scoped?.close(), modern?.close()]);
  await fake?.close();
});

type Conn = typeof open;
const fileId = (conn: Conn, value: string) =>
  conn.client.complete({
    ref: { type: 'ref/resource', uri: 'gdrive:///{fileId}' },
    argument: { name: 'fileId', value },
  });
const name = (conn: Conn, value: string) =>
  conn.client.complete({
    ref: { type: 'ref/prompt', name: 'find_and_summarise' },
    argument: { name: 'name', value },
  });
const text = (r: GetPromptResult) => (r.messages[0]?.content as { text?: string } | undefined)?.text ?? '';

describe('completion by name', () => {
  it('gdrive:///{fileId} completes to the ids of files named so (trashed ones left out)', async () => {
    expect(open.client.getServerCapabilities()?.completions).toEqual({});
    const ids = (await fileId(open, 'report')).completion.values;
    expect(ids).toEqual(expect.arrayContaining(['DOC1', 'SHEET1', 'TEXT1', 'OREILLY1']));
    expect(ids).not.toContain('TRASHED1');
    // A quote in the name stays inside the query's literal.
    expect((await fileId(open, "O'Reilly")).completion.values).toEqual(['OREILLY1']);
  });

  it.each(['legacy', 'modern'])('under --folders only files inside complete (%s era)', async (era) => {
    const conn = era === 'legacy' ? scoped : modern;
    expect((await fileId(conn, 'report')).completion).toEqual({ values: ['DOC1'], total: 1, hasMore: false });
    expect((await name(conn, 'report')).completion.values).toEqual(['Quarterly report']);
    expect((await name(conn, 'Budget')).completion.values).toEqual([]);
  });
});

describe('find_and_summarise', () => {
  it('is listed, names the tools to use, and needs a name', async () => {
    const { prompts } = await open.client.listPrompts();
    expect(prompts.map((p) => [p.name, p.arguments?.map((a) => [a.name, a.required])])).toEqual([
      [
        'find_and_summarise',
        [
          ['name', true],
          ['focus', false],
        ],
      ],
    ]);
    const r = text(
      await open.client.getPrompt({
        name: 'find_and_summarise',
        arguments: { name: 'Quarterly report', focus: 'budget' },
      }),
    );
    expect(r).toContain('search (query "Quarterly report")');
    expect(r).toContain('read_file');
    expect(r).toContain('for this purpose: budget');
    await expect(open.client.getPrompt({ name: 'find_and_summarise', arguments: {} })).rejects.toThrow(
      /name/,
    );
  });
});
