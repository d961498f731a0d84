/**
 * The document worker's cache of parsed documents (issue 30: a cursor continuation of a long PDF
 * re-parsed the whole file on every call). Keyed by the SHA-256 of the document's bytes, so a
 * continuation of the same content reuses the parse and anything else — another file, or the same
 * path after it changed — is parsed afresh; which document a cursor may continue is still decided
 * by the cursor's binding (render.ts), never by this cache. Bounded in entries and in the bytes of
 * the documents held (a parsed document costs a multiple of its size; the worker's heap ceiling
 * bounds the rest): the least recently used entry is disposed first.
 */
import { createHash } from 'node:crypto';

/** At most this many parsed documents are kept. */
export const PARSED_CACHE_ENTRIES = 4;
/** At most this many bytes of documents (their input size) are kept parsed: 64 MiB. */
export const PARSED_CACHE_BYTES = 64 * 1024 * 1024;

interface Entry<T> {
  value: Promise<T>;
  bytes: number;
  dispose: (value: T) => void;
}

/** The cache key of `bytes`: their SHA-256, hex. */
export function contentKey(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** A least-recently-used map of parsed documents, bounded by {@link PARSED_CACHE_ENTRIES} and {@link PARSED_CACHE_BYTES}. */
export class ParsedCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private held = 0;

  constructor(
    private readonly maxEntries = PARSED_CACHE_ENTRIES,
    private readonly maxBytes = PARSED_CACHE_BYTES,
  ) {}

  /**
   * The parsed document of `key` (`bytes` long), parsed by `open` when it is not held; `reused`
   * says which. A parse that fails is not kept. A document larger than the whole budget is parsed
   * and not kept (`dispose` is then the caller's: {@link ParsedCache.keeps} says so).
   */
  async get(
    key: string,
    bytes: number,
    open: () => Promise<T>,
    dispose: (value: T) => void,
  ): Promise<{ value: T; reused: boolean }> {
    const held = this.entries.get(key);
    if (held) {
      this.entries.delete(key);
      this.entries.set(key, held);
      return { value: await held.value, reused: true };
    }
    if (!this.keeps(bytes)) return { value: await open(), reused: false };
    // Room first: the new parse must not share the heap with documents it evicts.
    while (this.entries.size >= this.maxEntries || this.held + bytes > this.maxBytes) this.evictOldest();
    const value = open();
    this.entries.set(key, { value, bytes, dispose });
    this.held += bytes;
    try {
      return { value: await value, reused: false };
    } catch (error) {
      if (this.entries.get(key)?.value === value) {
        this.entries.delete(key);
        this.held -= bytes;
      }
      throw error;
    }
  }

  /** True when a document of `bytes` is kept after its parse (it fits the byte budget). */
  keeps(bytes: number): boolean {
    return bytes <= this.maxBytes && this.maxEntries > 0;
  }

  /** Documents held. */
  get size(): number {
    return this.entries.size;
  }

  private evictOldest(): void {
    const oldest = this.entries.keys().next();
    if (oldest.done) return;
    const entry = this.entries.get(oldest.value) as Entry<T>;
    this.entries.delete(oldest.value);
    this.held -= entry.bytes;
    entry.value.then(entry.dispose, () => {});
  }
}
