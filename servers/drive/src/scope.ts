/**
 * `--folders ID,ID`: the folders (or Shared Drives) every tool is limited to, with everything
 * below them. Drive has no path to compare, so a file is inside when it, or one of its ancestors
 * (walked through `parents`), is a listed folder. Parents are cached briefly: a file's own for
 * {@link LEAF_TTL_MS} (a listing's answer saves the check of a hit read right after it), its
 * ancestors' for {@link ANCESTOR_TTL_MS}; so a file moved out of the folders (in Drive's UI, by
 * another client) is refused again within seconds, not readable until restart. A file outside is
 * refused before any of its content or metadata is returned; search hits and folder listings
 * outside are left out.
 */
import { ConfigError, outOfScope, type Scope, splitList } from '@refmcp/shared/server';
import type { DriveClient } from './drive/client.js';
import { fileIdOf } from './names.js';

/** Deepest folder nesting walked (Drive allows 100 levels). */
const MAX_DEPTH = 100;
/** Milliseconds the parents of the file being checked are trusted from the cache. */
export const LEAF_TTL_MS = 2_000;
/** Milliseconds the parents of its ancestors (folders, which rarely move) are trusted. */
export const ANCESTOR_TTL_MS = 60_000;

interface Known {
  parents: Promise<string[]>;
  /** Date.now() when Drive answered (or the listing was remembered). */
  at: number;
}

export class FolderScope implements Scope<[fileId: string, signal?: AbortSignal]> {
  /** file id → its parents (or [] at a drive's root), as Drive answered. */
  private readonly parents = new Map<string, Known>();
  private client?: DriveClient;

  private constructor(
    readonly folders: ReadonlySet<string>,
    /** The flag's text, for messages. */
    readonly description: string,
  ) {}

  /** Parses "ID,ID" (ids or folder URLs). Errors: ConfigError naming the bad entry. */
  static parse(value: string): FolderScope {
    const entries = splitList(value) ?? [];
    if (!entries.length) throw new ConfigError('--folders: give at least one folder id');
    const ids = entries.map((entry) => {
      try {
        return fileIdOf(entry, '--folders');
      } catch {
        throw new ConfigError(`--folders: "${entry}" is not a folder id or folder URL`);
      }
    });
    return new FolderScope(new Set(ids), ids.join(','));
  }

  /** Gives the scope the client it walks ancestors with (set once the client exists). */
  attach(client: DriveClient): void {
    this.client = client;
  }

  /** Records `id`'s parents from a listing (saves a files.get when it is checked later). */
  remember(id: string, parents: string[] | null | undefined, driveId?: string | null): void {
    this.parents.set(id, {
      parents: Promise.resolve(parents ?? (driveId ? [driveId] : [])),
      at: Date.now(),
    });
  }

  /** Drops what is known of `id`'s parents (after this server moved it). */
  forget(id: string): void {
    this.parents.delete(id);
  }

  private parentsOf(id: string, signal: AbortSignal, ttlMs: number): Promise<string[]> {
    const cached = this.parents.get(id);
    let known = cached && Date.now() - cached.at <= ttlMs ? cached.parents : undefined;
    if (!known) {
      const client = this.client;
      if (!client) throw new Error('FolderScope used before attach()');
      known = client
        .call<{ parents?: string[] | null; driveId?: string | null }>(
          'GET',
          `files.get ${id}`,
          (o) =>
            client.api.files.get({ fileId: id, fields: 'id,parents,driveId', supportsAllDrives: true }, o),
          signal,
        )
        .then((r) => r.data.parents ?? (r.data.driveId && r.data.driveId !== id ? [r.data.driveId] : []));
      const entry = { parents: known, at: Date.now() };
      known.catch(() => {
        if (this.parents.get(id) === entry) this.parents.delete(id);
      });
      this.parents.set(id, entry);
    }
    return known;
  }

  /** True when `fileId` is a listed folder or below one. Errors: Drive's (e.g. 404). */
  async allows(fileId: string, signal: AbortSignal = new AbortController().signal): Promise<boolean> {
    let frontier = [fileId];
    const seen = new Set<string>();
    for (let depth = 0; depth <= MAX_DEPTH && frontier.length; depth++) {
      const next: string[] = [];
      for (const id of frontier) {
        if (this.folders.has(id)) return true;
        if (seen.has(id)) continue;
        seen.add(id);
        next.push(...(await this.parentsOf(id, signal, depth === 0 ? LEAF_TTL_MS : ANCESTOR_TTL_MS)));
      }
      frontier = next;
    }
    return false;
  }

  /** Refuses `fileId` outside the folders (the shared wording). */
  async check(fileId: string, signal?: AbortSignal): Promise<void> {
    if (!(await this.allows(fileId, signal)))
      throw outOfScope(fileId, 'folders', '--folders', this.description);
  }
}
