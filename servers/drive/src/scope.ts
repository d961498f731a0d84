/**
 * `--folders ID,ID`: the folders (or Shared Drives) every tool is limited to, with everything
 * below them. Drive has no path to compare, so a file is inside when it, or one of its ancestors
 * (walked through `parents`, cached for the process), is a listed folder. A file outside is
 * refused before any of its content or metadata is returned; search hits and folder listings
 * outside are left out.
 */
import { ConfigError, outOfScope, type Scope, splitList } from '@refmcp/shared/server';
import type { DriveClient } from './drive/client.js';
import { fileIdOf } from './names.js';

/** Deepest folder nesting walked (Drive allows 100 levels). */
const MAX_DEPTH = 100;

export class FolderScope implements Scope<[fileId: string, signal?: AbortSignal]> {
  /** file id → its parents (or [] at a drive's root), as Drive answered. */
  private readonly parents = new Map<string, Promise<string[]>>();
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
    if (!this.parents.has(id)) this.parents.set(id, Promise.resolve(parents ?? (driveId ? [driveId] : [])));
  }

  private parentsOf(id: string, signal: AbortSignal): Promise<string[]> {
    let known = this.parents.get(id);
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
      known.catch(() => this.parents.delete(id));
      this.parents.set(id, known);
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
        next.push(...(await this.parentsOf(id, signal)));
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
