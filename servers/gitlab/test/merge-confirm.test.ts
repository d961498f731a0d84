/**
 * merge_merge_request asks the user first (confirmation through elicitation, in both protocol
 * eras): only an accept merges; decline and cancel send no merge request to GitLab and say nothing
 * was changed. A client that cannot ask merges as before; with --require-confirmation the call is
 * refused instead, before any merge is sent.
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
import type { FakeGitLab } from '@refmcp/test-harness/fakes/gitlab';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeEnv, startScene } from './support.js';

let gl: FakeGitLab;
let scene: Awaited<ReturnType<typeof startScene>>['scene'];
let branches = 0;
beforeAll(async () => {
  ({ gl, scene } = await startScene());
});
afterAll(() => gl.close());

/** A new open merge request (its own branch adding its own file), by iid. */
function openMergeRequest(): number {
  const s = gl.state;
  const branch = `confirm-${++branches}`;
  s.commit(
    scene.proj,
    branch,
    { [`docs/${branch}.md`]: `# ${branch}\n` },
    `Add ${branch}`,
    s.userId('dev'),
    'main',
  );
  return s.addMergeRequest(scene.proj, { title: branch, author: 'dev', source: branch }).iid;
}

const stateOf = (iid: number) => scene.proj.mergeRequests.find((m) => m.iid === iid)?.state;
const merges = () => gl.api.requests.filter((r) => r.method === 'PUT' && r.path.endsWith('/merge'));

async function start(
  era: Era,
  args: string[],
  answers?: ElicitAnswer[],
  asked: string[] = [],
): Promise<Connection> {
  const conn = await startBuiltServer('gitlab', [...NO_PACING, ...args], {
    era,
    env: fakeEnv(gl),
    ...(answers ? { capabilities: { elicitation: { form: {} } } } : {}),
  });
  if (answers) answerElicitations(conn, answers, asked);
  return conn;
}

describe.each(['legacy', 'modern'] as const)('merge_merge_request confirmation (%s era)', (era) => {
  it('decline and cancel merge nothing and say so; accept merges', async () => {
    const iid = openMergeRequest();
    const asked: string[] = [];
    const conn = await start(era, [], ['decline', 'cancel', 'accept'], asked);
    gl.api.clearRequests();
    try {
      const args = { project_id: 'grp/proj', merge_request_iid: iid, should_remove_source_branch: true };
      const declined = await conn.client.callTool({ name: 'merge_merge_request', arguments: args });
      expect(declined.isError).toBe(true);
      expect(resultText(declined)).toMatch(
        /^The user declined \(Merge merge request .*\)\. Nothing was changed/,
      );
      const cancelled = await conn.client.callTool({ name: 'merge_merge_request', arguments: args });
      expect(cancelled.isError).toBe(true);
      expect(resultText(cancelled)).toMatch(/^The user dismissed the confirmation .*Nothing was changed/);
      expect(merges()).toEqual([]);
      expect(stateOf(iid)).toBe('opened');
      const accepted = await conn.client.callTool({ name: 'merge_merge_request', arguments: args });
      expect(accepted.isError, resultText(accepted)).toBeFalsy();
      expect(merges()).toHaveLength(1);
      expect(stateOf(iid)).toBe('merged');
      expect(asked).toEqual(
        Array(3).fill(`Merge merge request !${iid} of project grp/proj and delete its source branch?`),
      );
      expect(conn.era).toBe(era);
    } finally {
      await conn.close();
    }
  });
});

describe('a client that cannot ask', () => {
  it('merges as before; with --require-confirmation it is refused before any merge is sent', async () => {
    const strictIid = openMergeRequest();
    const strict = await start('legacy', ['--require-confirmation']);
    gl.api.clearRequests();
    try {
      const refused = await strict.client.callTool({
        name: 'merge_merge_request',
        arguments: { project_id: 'grp/proj', merge_request_iid: strictIid },
      });
      expect(refused.isError).toBe(true);
      expect(resultText(refused)).toMatch(
        /cannot ask .*Nothing was changed; the operator set --require-confirmation/,
      );
      expect(merges()).toEqual([]);
      expect(stateOf(strictIid)).toBe('opened');
    } finally {
      await strict.close();
    }
    const plain = await start('legacy', []);
    try {
      const done = await plain.client.callTool({
        name: 'merge_merge_request',
        arguments: { project_id: 'grp/proj', merge_request_iid: strictIid },
      });
      expect(done.isError, resultText(done)).toBeFalsy();
      expect(stateOf(strictIid)).toBe('merged');
    } finally {
      await plain.close();
    }
  });
});
