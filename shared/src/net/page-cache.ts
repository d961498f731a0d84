/**
 * The pages `readPage` read lately, so that continuing a page (offset > 0) pages through the same
 * snapshot — no overlap or gap when the page changes between calls, and no second download and
 * extraction of a long page. A read from offset 0 always fetches anew and replaces the snapshot.
 * One small store per policy: at most {@link SNAPSHOT_LIMIT} pages, each for {@link SNAPSHOT_TTL_MS}.
 */
import type { NetworkPolicy } from './policy/network-policy.js';

export const SNAPSHOT_LIMIT = 4;
export const SNAPSHOT_TTL_MS = 10 * 60_000;

interface Entry<T> {
  value: T;
  until: number;
}

const stores = new WeakMap<NetworkPolicy, Map<string, Entry<unknown>>>();

function store(policy: NetworkPolicy): Map<string, Entry<unknown>> {
  let map = stores.get(policy);
  if (!map) {
    map = new Map();
    stores.set(policy, map);
  }
  return map;
}

/** The snapshot kept under `key` for `policy`, if still fresh. */
export function snapshotOf<T>(policy: NetworkPolicy, key: string): T | undefined {
  const map = store(policy);
  const entry = map.get(key);
  if (!entry) return undefined;
  if (entry.until <= Date.now()) {
    map.delete(key);
    return undefined;
  }
  return entry.value as T;
}

/** Keeps `value` under `key` for `policy`, dropping the oldest snapshot past the limit. */
export function keepSnapshot<T>(policy: NetworkPolicy, key: string, value: T): void {
  const map = store(policy);
  map.delete(key);
  map.set(key, { value, until: Date.now() + SNAPSHOT_TTL_MS });
  while (map.size > SNAPSHOT_LIMIT) map.delete(map.keys().next().value ?? '');
}
