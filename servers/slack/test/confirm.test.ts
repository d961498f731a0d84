/**
 * Issue 32: slack_delete_message asks the user first through form elicitation, in both protocol
 * eras: decline and cancel send no chat.delete, accept deletes; a client that cannot ask gets
 * today's behaviour, and with --require-confirmation the call is refused before any request.
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
import { BOT_USER, type FakeSlack } from '@refmcp/test-harness/fakes/slack';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeEnv, startScene, startServer } from './support.js';

const EDIT_ARGS = ['--post-to', 'C0TEST', '--toolsets', 'channels,posting,editing'];

let slack: FakeSlack;
beforeAll(async () => {
  ({ slack } = await startScene());
});
afterAll(() => slack.close());

const ownMessage = () => slack.state.addMessage('C0TEST', 'mine', { user: BOT_USER }).ts;
const deletes = () => slack.calls('chat.delete').length;

/** A server whose client declares form elicitation and answers each question with the next action. */
async function asking(era: Era, answers: ElicitAnswer[], asked: string[]): Promise<Connection> {
  const conn = await startBuiltServer('slack', [...NO_PACING, ...EDIT_ARGS], {
    era,
    env: fakeEnv(slack),
    capabilities: { elicitation: { form: {} } },
  });
  answerElicitations(conn, answers, asked);
  return conn;
}

describe.each(['legacy', 'modern'] as const)('slack_delete_message confirmation (%s era)', (era) => {
  it('decline and cancel send no chat.delete; accept deletes', async () => {
    const ts = ownMessage();
    const asked: string[] = [];
    const conn = await asking(era, ['decline', 'cancel', 'accept'], asked);
    try {
      const before = deletes();
      const args = { channel_id: 'C0TEST', ts };
      const declined = await conn.client.callTool({ name: 'slack_delete_message', arguments: args });
      expect(declined.isError).toBe(true);
      expect(resultText(declined)).toMatch(/^The user declined .*Nothing was changed/);
      const cancelled = await conn.client.callTool({ name: 'slack_delete_message', arguments: args });
      expect(resultText(cancelled)).toMatch(/^The user dismissed the confirmation .*Nothing was changed/);
      expect(deletes()).toBe(before);
      const accepted = await conn.client.callTool({ name: 'slack_delete_message', arguments: args });
      expect(accepted.isError, resultText(accepted)).toBeFalsy();
      expect(slack.calls('chat.delete').slice(before)).toEqual([expect.objectContaining({ ts })]);
      expect(asked).toEqual(Array(3).fill(`Delete message ${ts} in C0TEST? Slack keeps no copy to restore.`));
    } finally {
      await conn.close();
    }
  });
});

describe('a client that cannot ask', () => {
  it('gets today’s behaviour; with --require-confirmation the call is refused before any request', async () => {
    const ts = ownMessage();
    const strict = await startServer(slack, [...EDIT_ARGS, '--require-confirmation']);
    try {
      const before = deletes();
      const refused = await strict.client.callTool({
        name: 'slack_delete_message',
        arguments: { channel_id: 'C0TEST', ts },
      });
      expect(refused.isError).toBe(true);
      expect(resultText(refused)).toMatch(
        /cannot ask .*Nothing was changed; the operator set --require-confirmation/,
      );
      expect(deletes()).toBe(before);
    } finally {
      await strict.close();
    }
    const plain = await startServer(slack, EDIT_ARGS);
    try {
      const r = await plain.client.callTool({
        name: 'slack_delete_message',
        arguments: { channel_id: 'C0TEST', ts },
      });
      expect(r.isError, resultText(r)).toBeFalsy();
      expect(slack.calls('chat.delete').at(-1)).toMatchObject({ ts });
    } finally {
      await plain.close();
    }
  });
});
