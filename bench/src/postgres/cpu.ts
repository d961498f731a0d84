/**
 * CPU time a process has used so far (user + system), from /proc/<pid>/stat (proc(5): fields 14
 * utime and 15 stime, in clock ticks of 1/100 s on Linux). It is what one call costs whatever
 * the machine's load, where calls/s also measures how much of a busy CPU the server got.
 */
import { readFile } from 'node:fs/promises';

/** Clock ticks per second (sysconf(_SC_CLK_TCK), 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** CPU ms used by `pid`, or undefined when /proc cannot tell (another OS, process gone). */
export async function cpuMs(pid: number | undefined): Promise<number | undefined> {
  if (!pid) return undefined;
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start at state, field 3.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? (ticks * 1000) / TICKS_PER_SECOND : undefined;
  } catch {
    return undefined;
  }
}
