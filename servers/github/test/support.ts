/**
 * The GitHub server's own test fixtures: a seeded fake GitHub on 127.0.0.1 and the built server
 * connected to it over stdio (GITHUB_API_URL pointing at the fake; no test reaches github.com).
 */
import { type Era, NO_PACING, startBuiltServer } from '@refmcp/test-harness';
import { type FakeGitHub, SCENE_TOKEN, seedScene, startFakeGitHub } from '@refmcp/test-harness/fakes/github';

export { SCENE_TOKEN };

/** A fake GitHub with the standard scene. */
export async function startScene(): Promise<{ gh: FakeGitHub; scene: ReturnType<typeof seedScene> }> {
  const gh = await startFakeGitHub();
  return { gh, scene: seedScene(gh) };
}

/** The environment that points the server at `gh` with the scene's token. */
export const fakeEnv = (gh: FakeGitHub) => ({
  GITHUB_API_URL: gh.url,
  GITHUB_PERSONAL_ACCESS_TOKEN: SCENE_TOKEN,
});

/** Spawns the built server against `gh` with `args`; `env` overrides (e.g. no token). */
export function startServer(
  gh: FakeGitHub,
  args: string[] = [],
  opts: { env?: Record<string, string>; era?: Era; pacing?: boolean } = {},
) {
  return startBuiltServer('github', [...(opts.pacing ? [] : NO_PACING), ...args], {
    env: { ...fakeEnv(gh), ...opts.env },
    era: opts.era ?? 'legacy',
  });
}
