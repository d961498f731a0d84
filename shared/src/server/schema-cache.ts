/**
 * The tools' JSON Schemas as converted by an earlier start of the same bundle, so that a start's
 * first `tools/list` converts none (zod's conversion and {@link leanJsonSchema} were ~100 ms of
 * GitHub's 57 tools, a third of its cold start). Entries are keyed by {@link schemaKey} — what
 * the conversion reads, hashed — so a schema a config changes (a bound, a description naming a
 * limit) is converted anew, never served stale. The file is the launcher's (launch/schema-store.ts,
 * kept and checked like the V8 code cache: this uid's private directory, a SHA-256 of the
 * payload); without one (tests on the sources, source maps on) every schema is converted, as
 * before. A start that converted anything saves, after its answer, the entries it used: the file
 * holds one configuration's schemas, not every one ever seen.
 */
import type { SideFile } from '../launch/compile-cache.js';
import { schemaStore } from '../launch/schema-store.js';
import { schemaKey } from './schema-key.js';

interface Table {
  store: SideFile;
  /** Entries read from the file: key → JSON text. */
  saved: Map<string, string>;
  /** Entries this process used (read or converted), saved when any was converted. */
  used: Map<string, string>;
  saving: boolean;
}

let table: Table | undefined | null;

function open(): Table | undefined {
  if (table !== undefined) return table ?? undefined;
  const store = schemaStore();
  if (!store) {
    table = null;
    return undefined;
  }
  const saved = new Map<string, string>();
  try {
    const parsed = JSON.parse(store.load()?.toString('utf8') ?? '{}') as unknown;
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
      for (const [key, json] of Object.entries(parsed)) if (typeof json === 'string') saved.set(key, json);
  } catch {
    // unreadable: converted anew and saved over
  }
  table = { store, saved, used: new Map(), saving: false };
  return table;
}

/**
 * The JSON text of `schema`'s `io` conversion for `target`: from the file when an earlier start
 * converted the same schema, else `convert()` (then saved once this turn of the event loop ends).
 */
export function cachedJsonSchema(
  schema: unknown,
  io: 'input' | 'output',
  target: string,
  convert: () => string,
): string {
  const t = open();
  const key = t && schemaKey(schema);
  if (!t || !key) return convert();
  const id = `${io} ${target} ${key}`;
  let json = t.saved.get(id);
  if (json === undefined) {
    json = convert();
    saveSoon(t);
  }
  t.used.set(id, json);
  return json;
}

function saveSoon(t: Table): void {
  if (t.saving) return;
  t.saving = true;
  setTimeout(() => {
    t.saving = false;
    t.store.save(Buffer.from(JSON.stringify(Object.fromEntries(t.used))));
    t.saved = new Map(t.used);
  }, 0).unref();
}
