/**
 * Confirmation through elicitation on the GitHub server (shared bootstrap, `confirm` on the tool):
 * merge_pull_request asks a client that declares form elicitation; a decline leaves the pull request
 * open (the fake saw no merge), an accept merges it; a client that cannot ask merges as before.
 */
import { callChecked, NO_PACING, startBuiltServer, structured } from '@refmcp/test-harness';
import type { FakeGitHub } from '@refmcp/test-harness/fakes/github';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeEnv, startScene, startServer } from './support.js';

let gh: FakeGitHub;
let pr = 0;
const base = { owner: 'acme', repo: 'demo' };

beforeAll(async () => {
  const started = await startScene();
  gh = started.gh;
  pr = started.scene.pr.number;
});
afterAll(async () => {
  await gh.close();
});

describe('merge_pull_request asks first', () => {
  it('decline: nothing merged; accept: merged; the question names the pull request', async () => {
    const answers = ['decline', 'accept'] as const;
    const asked: string[] = [];
    const conn = await startBuiltServer('github', [...NO_PACING], {
      env: fakeEnv(gh),
      capabilities: { elicitation: { form: {} } },
    });
    conn.client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(request.params.message);
      const action = answers[asked.length - 1] ?? 'cancel';
      return action === 'accept' ? { action, content: {} } : { action };
    });
    try {
      const declined = await callChecked(conn, 'merge_pull_request', { ...base, pull_number: pr });
      expect(declined.isError).toBe(true);
      expect(declined.text).toMatch(/^The user declined .*Nothing was changed/);
      const still = await callChecked(conn, 'get_pull_request', { ...base, pull_number: pr });
      expect(structured(still)).toMatchObject({ pullRequest: { state: 'open' } });
      const merged = await callChecked(conn, 'merge_pull_request', { ...base, pull_number: pr });
      expect(structured(merged)).toMatchObject({ merged: true });
      expect(asked).toEqual([
        `Merge pull request #${pr} of acme/demo (merge)?`,
        `Merge pull request #${pr} of acme/demo (merge)?`,
      ]);
    } finally {
      await conn.close();
    }
  });

  it('a client that cannot ask is not asked (the flags decide, as before)', async () => {
    const conn = await startServer(gh);
    try {
      const created = await callChecked(conn, 'create_pull_request', {
        ...base,
        title: 'Second',
        head: 'feature',
        base: 'main',
      });
      const number = structured<{ pullRequest: { number: number } }>(created).pullRequest.number;
      const merged = await callChecked(conn, 'merge_pull_request', { ...base, pull_number: number });
      expect(merged.isError).toBeFalsy();
    } finally {
      await conn.close();
    }
  });
});
