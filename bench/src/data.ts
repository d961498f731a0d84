/**
 * The workload data, generated once into bench/.bench-data/ and reused while present. Each data
 * set is built under a temporary name and renamed into place when complete, so an interrupted
 * run never leaves a half-built set that a later run would trust.
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Sizes } from './config.js';

type Log = (message: string) => void;

/** True if `path` exists. */
async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/** Builds `final` with `build(tmp)` unless it exists; returns `final`. */
async function cached(final: string, log: Log, what: string, build: (tmp: string) => Promise<void>) {
  if (await exists(final)) return final;
  const tmp = `${final}.tmp-${process.pid}`;
  await rm(tmp, { recursive: true, force: true });
  const started = performance.now();
  log(`generating ${what} …`);
  await build(tmp);
  await rename(tmp, final);
  log(`generated ${what} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return final;
}

/** Runs `task(i)` for i in [0, n) with at most `limit` running at once. */
async function pool(n: number, limit: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < n) await task(next++);
  };
  await Promise.all(Array.from({ length: Math.min(limit, n) }, worker));
}

/** A text of exactly `bytes` ASCII bytes in lines of up to 64 characters. */
function filler(label: string, bytes: number): string {
  let text = '';
  for (let line = 0; text.length < bytes; line++) {
    text += `${label} line ${String(line).padStart(3, '0')} ${'lorem ipsum dolor sit amet '.repeat(2)}`.slice(
      0,
      63,
    );
    text += '\n';
  }
  return text.slice(0, bytes);
}

/** `count` small text files small/s000.txt … of `bytes` bytes each. */
export function smallFiles(root: string, sizes: Sizes, log: Log): Promise<string> {
  const { smallFiles: count, smallFileBytes: bytes } = sizes;
  return cached(join(root, `small-${count}x${bytes}`), log, `${count} small files`, async (dir) => {
    await mkdir(dir, { recursive: true });
    await pool(count, 16, (i) => writeFile(join(dir, smallName(i)), filler(`s${i}`, bytes)));
  });
}

export function smallName(i: number): string {
  return `s${String(i).padStart(3, '0')}.txt`;
}

/**
 * The big tree: d0000/ … each holding f00.txt … (a few dozen bytes each), plus `needles` files
 * named needle.txt spread evenly over the directories (the rare-name search target).
 */
export function bigTree(root: string, sizes: Sizes, log: Log): Promise<string> {
  const { treeDirs: dirs, treeFilesPerDir: files, needles } = sizes;
  const name = `tree-${dirs}x${files}+${needles}`;
  return cached(join(root, name), log, `a ${dirs * files + needles}-file tree`, async (tree) => {
    const every = Math.max(1, Math.floor(dirs / Math.max(1, needles)));
    await pool(dirs, 4, async (d) => {
      const dir = join(tree, `d${String(d).padStart(4, '0')}`);
      await mkdir(dir, { recursive: true });
      const writes: Promise<void>[] = [];
      for (let f = 0; f < files; f++) {
        const file = `f${String(f).padStart(2, '0')}.txt`;
        writes.push(writeFile(join(dir, file), `${name}/d${d}/${file}\n`));
      }
      if (d % every === 0 && d / every < needles) writes.push(writeFile(join(dir, 'needle.txt'), 'needle\n'));
      await Promise.all(writes);
    });
  });
}

/** One big text file of `bigFileMiB` MiB in numbered lines of 80 bytes, written as a stream. */
export function bigFile(root: string, sizes: Sizes, log: Log): Promise<string> {
  const bytes = sizes.bigFileMiB * 1024 * 1024;
  const final = join(root, `big-${sizes.bigFileMiB}MiB`);
  return cached(final, log, `a ${sizes.bigFileMiB} MiB file`, async (dir) => {
    await mkdir(dir, { recursive: true });
    const out = createWriteStream(join(dir, 'big.txt'));
    const lineBytes = 80;
    const linesPerChunk = 16 * 1024;
    let written = 0;
    let line = 0;
    while (written < bytes) {
      let chunk = '';
      for (let i = 0; i < linesPerChunk && written + chunk.length < bytes; i++, line++) {
        const head = `line ${String(line).padStart(9, '0')} `;
        chunk += `${head}${'the quick brown fox jumps over the lazy dog 0123456789 '.repeat(2)}`.slice(
          0,
          lineBytes - 1,
        );
        chunk += '\n';
      }
      chunk = chunk.slice(0, bytes - written);
      written += chunk.length;
      if (!out.write(chunk)) await once(out, 'drain');
    }
    out.end();
    await once(out, 'finish');
  });
}

/** The path of the big file inside the directory bigFile() returns. */
export function bigFilePath(dir: string): string {
  return join(dir, 'big.txt');
}

/** Lists the whole tree once so both servers find its directories in the kernel's caches. */
export async function warmTree(tree: string): Promise<number> {
  return (await readdir(tree, { recursive: true })).length;
}
