/**
 * The two GitHub servers under test — ours (servers/github) and the official
 * @modelcontextprotocol/server-github 2025.4.8 (a bench dependency); sessions are the API suites'
 * (../api-servers.ts). The official server hard-codes https://api.github.com; to give it the
 * same work as ours, its process gets a preload (`node --import`) that rewrites that origin to the
 * local fake GitHub in `fetch` (it uses the global fetch) — a string replace per request, nothing
 * else. Cold starts are measured without the preload.
 */
import { fetchRedirectPreload, locateApiServers } from '../api-servers.js';
import type { ServerUnderTest, Side } from '../servers.js';

/** Finds both servers; an absent one is returned with `missing` set, not thrown. */
export function locateGithubServers(): Record<Side, ServerUnderTest> {
  return locateApiServers('github', '@modelcontextprotocol/server-github');
}

/** Writes the fetch-redirect preload for the official server (https://api.github.com → the fake); returns its file URL. */
export function redirectPreload(dataRoot: string, fakeUrl: string): string {
  return fetchRedirectPreload(dataRoot, 'github-redirect.mjs', 'https://api.github.com', fakeUrl);
}
