/**
 * The two GitHub servers under test — ours (servers/github) and the official
 * @modelcontextprotocol/server-github 2025.4.8 (a bench dependency) — on the shared API-suite
 * helpers (../api-servers.ts). The official server hard-codes https://api.github.com; its process
 * gets a fetch-redirect preload to the local fake GitHub. Cold starts are measured without it.
 */
import { type ApiSession, fetchRedirectPreload, locateApiServers, startApiSession } from '../api-servers.js';
import type { ServerUnderTest, Side } from '../servers.js';

/** Finds both servers; an absent one is returned with `missing` set, not thrown. */
export function locateGithubServers(): Record<Side, ServerUnderTest> {
  return locateApiServers('github', '@modelcontextprotocol/server-github');
}

/** Writes the fetch-redirect preload for the official server; returns its file URL. */
export function redirectPreload(dataRoot: string, fakeUrl: string): string {
  return fetchRedirectPreload(dataRoot, 'github-redirect.mjs', 'https://api.github.com', fakeUrl);
}

export type GithubSession = ApiSession;

/** Spawns `server` (with `preload`, if given) with `env` overlaid on a host-like environment, connects and lists tools. */
export const startGithubSession = startApiSession;
