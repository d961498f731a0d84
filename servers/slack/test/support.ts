/**
 * The Slack server's own test fixtures: a fake Slack Web API on 127.0.0.1 with the standard scene
 * and the built server connected to it over stdio (SLACK_API_URL pointing at the fake; no test
 * reaches slack.com).
 */
import { type BuiltServer, type Era, NO_PACING, startBuiltServer } from '@refmcp/test-harness';
import {
  BOT_TOKEN,
  type FakeSlack,
  seedScene,
  startFakeSlack,
  USER_TOKEN,
} from '@refmcp/test-harness/fakes/slack';

export { BOT_TOKEN, USER_TOKEN };

/** A fake Slack with the standard scene. */
export async function startScene() {
  const slack = await startFakeSlack();
  return { slack, scene: seedScene(slack) };
}

/** The environment that points the server at `slack` with the scene's bot token. */
export const fakeEnv = (slack: FakeSlack): Record<string, string> => ({
  SLACK_API_URL: slack.apiUrl,
  SLACK_BOT_TOKEN: BOT_TOKEN,
});

/** Spawns the built server against `slack` with `args`; `env` overrides (e.g. a user token). */
export function startServer(
  slack: FakeSlack,
  args: string[] = [],
  opts: { env?: Record<string, string>; era?: Era } = {},
): Promise<BuiltServer> {
  return startBuiltServer('slack', [...NO_PACING, ...args], {
    env: { ...fakeEnv(slack), ...opts.env },
    era: opts.era ?? 'legacy',
  });
}

/** The methods the fake was asked, in order (`conversations.history`, …). */
export const methodsCalled = (slack: FakeSlack): string[] =>
  slack.api.requests.map((r) => r.path.replace(/^\//, ''));

/** True when any request the fake received names `id` (in its query or body). */
export const anyRequestNames = (slack: FakeSlack, id: string): boolean =>
  slack.api.requests.some((r) => r.rawQuery.includes(id) || r.body.includes(id));
