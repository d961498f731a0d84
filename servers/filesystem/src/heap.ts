/**
 * V8 heap sizing for a long-running stdio server whose live heap is small (~12 MiB) but which allocates
 * fast under load (every request is parsed, validated and serialised by the SDK). Node flags cannot be
 * passed on a command line (hosts run `node dist/index.js` or the bin), so these are set at runtime,
 * where V8 reads them at each GC. Measured on the bench's read workload (32 calls in flight): peak RSS
 * 143 MiB with V8's defaults, ~90 MiB with both settings, calls/s unchanged.
 *
 * - Old generation: after a full GC V8 lets it grow to live size × a factor that starts high for young
 *   processes, so garbage promoted from busy requests piles up to 30+ MiB before the next full GC. A fixed
 *   30% keeps the limit near the live size (a few more incremental full GCs). Set by the bin before
 *   anything is compiled (`--v8-flags=--heap-growing-percent=30` in package.json's build), where it keeps
 *   the code cache valid (shared/src/launch/launcher.ts).
 * - Young generation: under load V8 doubles it up to 2 × 16 MiB. Growth stops at 2 × 8 MiB here: still
 *   large enough that a request's short-lived objects die young (stopping at the initial 2 × 1 MiB instead
 *   costs ~20% CPU in extra scavenges and promotions).
 */
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

/** Size of the young generation (both semi-spaces) at which it stops growing. */
const YOUNG_GENERATION_BYTES = 16 * 1024 * 1024;

const young = new PerformanceObserver((list) => {
  const scavenged = list
    .getEntries()
    .some((e) => (e as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MINOR);
  if (!scavenged) return;
  const size = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? 0;
  if (size < YOUNG_GENERATION_BYTES) return;
  setFlagsFromString('--semi-space-growth-factor=1'); // "grow" by ×1 from now on
  young.disconnect();
});
young.observe({ entryTypes: ['gc'] });
