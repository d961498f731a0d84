/**
 * JSON Schema checks (ajv) of what comes from outside: registry files, tool schemas and
 * structured results in tests. Kept apart from ./schema.ts so servers never load ajv at startup.
 */
import Ajv2019Module from 'ajv/dist/2019.js';
import Ajv2020Module from 'ajv/dist/2020.js';
import AjvDraft7Module from 'ajv/dist/ajv.js';
import addFormats from 'ajv-formats';

type AjvClass = typeof Ajv2020Module.default;
type Validate = ((data: unknown) => boolean) & {
  errors?: { instancePath: string; message?: string }[] | null;
};

// ajv is CommonJS: under NodeNext the default import is module.exports, whose `.default` is the class.
const pick = (mod: unknown): AjvClass => ((mod as { default?: AjvClass }).default ?? mod) as AjvClass;

/** JSON Schema dialects understood, by `$schema` URI (without a trailing `#`). */
const DIALECTS: Record<string, AjvClass> = {
  'https://json-schema.org/draft/2020-12/schema': pick(Ajv2020Module),
  'https://json-schema.org/draft/2019-09/schema': pick(Ajv2019Module),
  'http://json-schema.org/draft-07/schema': pick(AjvDraft7Module),
};
/** MCP's default dialect when `$schema` is absent (spec 2025-11-25, "Tool": JSON Schema 2020-12). */
const DEFAULT_DIALECT = 'https://json-schema.org/draft/2020-12/schema';

// Creating an instance compiles the meta-schemas (~50 ms), so keep one per dialect.
const instances = new Map<AjvClass, InstanceType<AjvClass>>();
function ajvFor(schema: object): InstanceType<AjvClass> | undefined {
  const declared = (schema as { $schema?: unknown }).$schema;
  const Ajv = DIALECTS[typeof declared === 'string' ? declared.replace(/#$/, '') : DEFAULT_DIALECT];
  if (!Ajv) return undefined;
  let ajv = instances.get(Ajv);
  if (!ajv) {
    ajv = new Ajv({ strict: false, allErrors: true });
    addFormats.default(ajv as never);
    instances.set(Ajv, ajv);
  }
  return ajv;
}

/** Outcome of {@link compileJsonSchema}: `ok`, or the reason it is not a usable JSON Schema. */
export type SchemaVerdict = { ok: true } | { ok: false; error: string };

/**
 * Compiles `schema` with ajv (strict mode off: unknown keywords and formats are tolerated, as hosts
 * tolerate them) against the meta-schema of its `$schema` dialect — 2020-12 when absent; 2019-09
 * and draft-07 are also understood. Never throws: `{ ok: false, error }` for a non-object, an
 * unknown dialect, a meta-schema violation or an unresolvable `$ref`.
 */
export function compileJsonSchema(schema: unknown): SchemaVerdict {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    return { ok: false, error: 'not a JSON object' };
  }
  const ajv = ajvFor(schema);
  if (!ajv)
    return {
      ok: false,
      error: `unsupported $schema dialect ${JSON.stringify((schema as { $schema?: unknown }).$schema)}`,
    };
  try {
    ajv.compile(schema);
    return { ok: true };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  } finally {
    // Forget it again: tools may reuse the same $id, and a later compile must not see this one.
    ajv.removeSchema(schema);
  }
}

/**
 * Validates `data` against `schema` (any dialect {@link compileJsonSchema} understands); returns
 * "path: message" problems, empty when valid. Throws when `schema` itself is not usable.
 */
export function validateJson(schema: Record<string, unknown>, data: unknown): string[] {
  const ajv = ajvFor(schema);
  if (!ajv) throw new Error(`unsupported $schema dialect ${JSON.stringify(schema.$schema)}`);
  // Schemas with an $id are compiled once and reused (ajv refuses a second compile of the same $id).
  const id = typeof schema.$id === 'string' ? schema.$id : undefined;
  const validate = ((id && ajv.getSchema(id)) || ajv.compile(schema)) as Validate;
  if (validate(data)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'}: ${e.message ?? 'invalid'}`);
}
