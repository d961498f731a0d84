/**
 * Which tab issued each snapshot ref, for one browser (a relaunched browser starts a new registry).
 *
 * Playwright numbers refs per page and restarts the numbering in every tab and every browser: the
 * `e2` of tab 0 and the `e2` of tab 1 are different elements, and after `browser_close` the first
 * refs handed out are the same strings as before. A ref is accepted only in the tab whose snapshot
 * issued it last, and only if this browser issued it, so a ref from another tab (or from a tab that
 * closed itself, which makes another tab current) or from before a restart is refused instead of
 * acting on whatever element now has that name. Playwright resolves only the refs of a document's
 * latest snapshot, so a ref left out of it (the element went away, or the snapshot had a `target`)
 * is refused with that reason.
 *
 * `Issuer` is the tab type (`Tab`); the registry only compares tabs by identity, so it does not
 * import them.
 */

/** Refs remembered at most (the oldest issued are forgotten first: a few hundred snapshots' worth). */
const MAX_REFS = 100_000;

const REF_IN_SNAPSHOT = /\[ref=([^\]\s]+)\]/g;

export class RefRegistry<Issuer extends object> {
  private readonly issuers = new Map<string, Issuer>();
  /** The refs of each tab's latest snapshot: the only ones Playwright still resolves there. */
  private readonly latest = new WeakMap<Issuer, Set<string>>();

  /** Records every ref in `snapshot` (a snapshot's text) as issued by `tab`, replacing its latest. */
  issue(tab: Issuer, snapshot: string): void {
    const refs = new Set<string>();
    for (const match of snapshot.matchAll(REF_IN_SNAPSHOT)) {
      const ref = match[1] ?? '';
      refs.add(ref);
      this.issuers.delete(ref); // re-inserted last: the newest issue is forgotten last
      this.issuers.set(ref, tab);
    }
    this.latest.set(tab, refs);
    for (const ref of this.issuers.keys()) {
      if (this.issuers.size <= MAX_REFS) break;
      this.issuers.delete(ref);
    }
  }

  /** The tab whose snapshot issued `ref` last, if this browser issued it. */
  issuer(ref: string): Issuer | undefined {
    return this.issuers.get(ref);
  }

  /** Whether `ref` is in `tab`'s latest snapshot (a snapshot with a target keeps only its region's). */
  inLatest(tab: Issuer, ref: string): boolean {
    return this.latest.get(tab)?.has(ref) ?? false;
  }
}
