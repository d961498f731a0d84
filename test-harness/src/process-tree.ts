// Descendant processes of a pid, read from Linux /proc (no `ps` dependency). On systems without
// /proc these return empty lists, so the "no child left behind" part of ALL-04 is then vacuous.
// A process is identified by pid *and* start time, so a pid reused by an unrelated process is
// never mistaken for (or killed as) a leftover.
import { readdirSync, readFileSync } from 'node:fs';

/** A process as seen at one moment: pid plus its start time (clock ticks since boot, from /proc). */
export interface ProcessId {
  pid: number;
  start: string;
}

/** Direct children of `pid`, from /proc/<pid>/task/<tid>/children; [] if unreadable. */
export function childPids(pid: number): number[] {
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  const children = new Set<number>();
  for (const tid of tasks) {
    let text = '';
    try {
      text = readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8');
    } catch {
      continue;
    }
    for (const part of text.split(/\s+/)) if (part) children.add(Number(part));
  }
  return [...children];
}

/** Every descendant pid of `pid` (children, grandchildren, …), breadth first. */
export function descendantPids(pid: number): number[] {
  const seen = new Set<number>();
  const queue = [pid];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    for (const child of childPids(next)) {
      if (seen.has(child)) continue;
      seen.add(child);
      queue.push(child);
    }
  }
  return [...seen];
}

/** State letter and start time of `pid` from /proc/<pid>/stat, or undefined if it is gone. */
function stat(pid: number): { state: string; start: string } | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // Fields after the parenthesised command name (which may contain spaces or ')'):
  // state is field 3, starttime field 22.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { state: fields[0] ?? '', start: fields[19] ?? '' };
}

/** The descendants of `pid` with their start times. */
export function descendants(pid: number): ProcessId[] {
  return descendantPids(pid).flatMap((child) => {
    const s = stat(child);
    return s ? [{ pid: child, start: s.start }] : [];
  });
}

/** True if the process still runs (same pid and start time, not a zombie). */
export function isAlive(proc: ProcessId | number): boolean {
  const { pid, start } = typeof proc === 'number' ? { pid: proc, start: undefined } : proc;
  const s = stat(pid);
  if (!s || s.state === 'Z' || s.state === 'X') return false;
  return start === undefined || s.start === start;
}

/** "1234 node server.js" (command line from /proc, truncated to 120 characters). */
export function describePid(pid: number): string {
  try {
    const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
    return `${pid} ${cmd.slice(0, 120)}`;
  } catch {
    return String(pid);
  }
}

/** SIGKILLs each process that is still the same live process; ignores the ones already gone. */
export function killAll(procs: ProcessId[]): void {
  for (const proc of procs) {
    if (!isAlive(proc)) continue;
    try {
      process.kill(proc.pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
}

/** {@link killAll}, then waits (polling every 20 ms, at most `ms`) until none of them is alive. */
export async function killAndWait(procs: ProcessId[], ms = 1000): Promise<void> {
  killAll(procs);
  for (let waited = 0; waited < ms && procs.some((p) => isAlive(p)); waited += 20) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Peak resident set size of a live process in bytes (Linux /proc `VmHWM`), or undefined elsewhere. */
export function peakRssBytes(pid: number): number | undefined {
  try {
    const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Bytes `pid` has read so far through read(2)-like calls, all its threads together (`rchar` of
 * /proc/<pid>/io, proc(5)): files, pipes and sockets alike. Lets a test assert how much of a file
 * a server read instead of how long it took. Throws when /proc cannot tell (not Linux, or gone).
 */
export function bytesReadBy(pid: number): number {
  const rchar = /^rchar:\s+(\d+)$/m.exec(readFileSync(`/proc/${pid}/io`, 'utf8'))?.[1];
  if (rchar === undefined) throw new Error(`/proc/${pid}/io has no rchar line`);
  return Number(rchar);
}

/**
 * CPU time `pid` has used so far, user plus system, all threads, in ms (fields 14 and 15 of
 * /proc/<pid>/stat, proc(5), at 100 ticks a second: 10 ms resolution). Unlike wall-clock time it
 * does not grow when other processes load the machine, so a test can bound the work a call did.
 * Throws when /proc cannot tell.
 */
export function cpuTimeMs(pid: number): number {
  const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) may hold spaces and parentheses: fields are counted after its last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  if (!Number.isFinite(ticks)) throw new Error(`/proc/${pid}/stat has no CPU times`);
  return ticks * 10;
}
