/**
 * The GitLab server's own test fixtures: a seeded fake GitLab on 127.0.0.1 and the built server
 * connected to it over stdio (GITLAB_API_URL pointing at the fake; no test reaches gitlab.com).
 */
import { type Era, NO_PACING, startBuiltServer } from '@refmcp/test-harness';
import { type FakeGitLab, SCENE_TOKEN, seedScene, startFakeGitLab } from '@refmcp/test-harness/fakes/gitlab';

export { SCENE_TOKEN };

/** A fake GitLab (at `prefix`, default /api/v4) with the standard scene. */
export async function startScene(prefix?: string) {
  const gl = await startFakeGitLab(prefix ? { prefix } : {});
  return { gl, scene: seedScene(gl) };
}

/** The environment that points the server at `gl` with the scene's token. */
export const fakeEnv = (gl: FakeGitLab) => ({
  GITLAB_API_URL: gl.url,
  GITLAB_PERSONAL_ACCESS_TOKEN: SCENE_TOKEN,
});

/** Spawns the built server against `gl` with `args`; `env` overrides (e.g. no token). */
export function startServer(
  gl: FakeGitLab,
  args: string[] = [],
  opts: { env?: Record<string, string>; era?: Era } = {},
) {
  return startBuiltServer('gitlab', [...NO_PACING, ...args], {
    env: { ...fakeEnv(gl), ...opts.env },
    era: opts.era ?? 'legacy',
  });
}
