/**
 * The container image, checked within `npm test` without podman (the build and the
 * `podman run --read-only --network=none` are the release workflow's `images` job): the
 * Containerfile's invariants (support/containerfile-rules.ts), and the image's server layout —
 * the release tarball staged as the image holds it, made read-only, started with the image's
 * ENTRYPOINT, ENV and WORKDIR mapped under a scratch root — answering the handshake without
 * writing to its own directory.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect } from '@refmcp/test-harness';
import { afterAll, describe, expect, it } from 'vitest';
import { CONTAINERFILE } from '../src/image.js';
import { stageServer } from '../src/stage.js';
import { packRelease } from '../src/tarballs.js';
import { containerfileProblems, imageLayout } from './support/containerfile-rules.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'refmcp-container-'));
afterAll(() => {
  execFileSync('chmod', ['-R', 'u+w', work]);
  rmSync(work, { recursive: true, force: true });
});
const containerfile = readFileSync(CONTAINERFILE, 'utf8');

/** Every file under `dir` with its size and mtime: what "nothing written" is compared on. */
function snapshot(dir: string): string[] {
  return readdirSync(dir, { recursive: true })
    .map(String)
    .sort()
    .map((p) => {
      const s = statSync(join(dir, p));
      return `${p} ${s.size} ${s.mtimeMs}`;
    });
}

describe('container image (static, without podman)', () => {
  it('the Containerfile keeps its invariants: non-root, no latest, the registry label, read-only-friendly', () => {
    expect(containerfileProblems(containerfile)).toEqual([]);
  });

  it('each broken invariant is caught', () => {
    const broken: [string, (s: string) => string, RegExp][] = [
      ['no USER', (s) => s.replace(/^USER .*$/m, ''), /runs as root/],
      ['USER root', (s) => s.replace(/^USER .*$/m, 'USER root'), /numeric non-root/],
      ['USER 0', (s) => s.replace(/^USER .*$/m, 'USER 0:0'), /numeric non-root/],
      ['latest base', (s) => s.replace(/^ARG BASE=.*$/m, 'ARG BASE=docker.io/library/node:latest'), /latest/],
      ['untagged base', (s) => s.replace(/^ARG BASE=.*$/m, 'ARG BASE=docker.io/library/node'), /untagged/],
      [
        'no label',
        (s) => s.replace('io.modelcontextprotocol.server.name', 'org.example.name'),
        /server\.name/,
      ],
      [
        'WORKDIR elsewhere',
        (s) => s.replace(/^WORKDIR .*$/m, 'WORKDIR /opt/refmcp'),
        /WORKDIR \/opt\/refmcp/,
      ],
      ['HOME elsewhere', (s) => s.replace('HOME=/tmp', 'HOME=/home/node'), /HOME=\/tmp/],
      ['a VOLUME', (s) => `${s}VOLUME /data\n`, /VOLUME \/data/],
      ['RUN as the user', (s) => `${s}RUN touch /opt/x\n`, /RUN after the final USER/],
      [
        'shell-form ENTRYPOINT',
        (s) => s.replace(/^ENTRYPOINT .*$/m, 'ENTRYPOINT node /opt/refmcp/server/dist/index.js'),
        /exec form/,
      ],
      [
        'ENTRYPOINT elsewhere',
        (s) => s.replace('/opt/refmcp/server/dist/index.js', '/srv/dist/index.js'),
        /copied to \/opt\/refmcp\/server/,
      ],
    ];
    for (const [what, mutate, problem] of broken) {
      const text = mutate(containerfile);
      expect(text, what).not.toBe(containerfile);
      expect(containerfileProblems(text).join('\n'), what).toMatch(problem);
    }
  });

  it("the image's layout runs read-only: the filesystem server from its tarball, by the ENTRYPOINT, with the image's ENV", async () => {
    const [t] = packRelease(repoRoot, join(work, 'tarballs'), ['filesystem']);
    if (!t) throw new Error('no filesystem tarball');
    const layout = imageLayout(containerfile);
    expect(layout.argv[0]).toBe('node');
    const root = join(work, 'root');
    const serverDir = join(root, layout.serverDir);
    stageServer(t, serverDir, join(work, 'npm-cache'));
    const tmp = join(root, 'tmp');
    mkdirSync(tmp, { recursive: true });
    execFileSync('chmod', ['-R', 'a-w', serverDir]);
    const before = snapshot(serverDir);
    const env = Object.fromEntries(
      Object.entries(layout.env).map(([k, v]) => [k, v.startsWith('/') ? join(root, v) : v]),
    );
    const conn = await connect({
      command: process.execPath,
      args: [join(root, relative('/', layout.argv[1] ?? '')), tmp],
      env,
      cwd: tmp,
      timeoutMs: 60_000,
    });
    try {
      expect(conn.serverInfo?.version).toBe(t.version);
      expect((await conn.client.listTools()).tools.map((x) => x.name)).toContain('read_text_file');
    } finally {
      await conn.close();
    }
    expect(snapshot(serverDir)).toEqual(before);
  });
});
