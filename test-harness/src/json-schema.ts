// Is a tool's inputSchema/outputSchema valid JSON Schema? Compiled with ajv for the dialect the
// schema declares (MCP's default dialect, when `$schema` is absent, is 2020-12).
import Ajv2019Module from 'ajv/dist/2019.js';
import Ajv2020Module from 'ajv/dist/2020.js';
import AjvDraft7Module from 'ajv/dist/ajv.js';

type AjvClass = typeof Ajv2020Module.default;

// ajv is CommonJS: under NodeNext the default import is module.exports, whose `.default` is the class.
// At runtime module.exports is the class itself as well, so take whichever is constructable.
const pick = (mod: unknown): AjvClass => ((mod as { default?: AjvClass }).default ?? mod) as AjvClass;
const Ajv2020 = pick(Ajv2020Module);
const Ajv2019 = pick(Ajv2019Module);
const AjvDraft7 = pick(AjvDraft7Module);

/** Outcome of {@link compileJsonSchema}: `ok`, or the reason it is not a usable JSON Schema. */
export type SchemaVerdict = { ok: true } | { ok: false; error: string };

const DIALECTS: Record<string, AjvClass> = {
  'https://json-schema.org/draft/2020-12/schema': Ajv2020,
  'https://json-schema.org/draft/2019-09/schema': Ajv2019,
  'http://json-schema.org/draft-07/schema': AjvDraft7,
};

/**
 * Compiles `schema` with ajv (strict mode off, so unknown keywords and formats are tolerated, as
 * hosts tolerate them) against the meta-schema of its `$schema` dialect — 2020-12 when absent;
 * 2019-09 and draft-07 are also understood. Never throws: returns `{ ok: false, error }` for a
 * non-object, an unknown dialect, a meta-schema violation or an unresolvable `$ref`.
 */
export function compileJsonSchema(schema: unknown): SchemaVerdict {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    return { ok: false, error: 'not a JSON object' };
  }
  const declared = (schema as { $schema?: unknown }).$schema;
  const dialect = typeof declared === 'string' ? declared.replace(/#$/, '') : undefined;
  const Ajv = dialect === undefined ? Ajv2020 : DIALECTS[dialect];
  if (!Ajv) return { ok: false, error: `unsupported $schema dialect ${JSON.stringify(declared)}` };
  const ajv = instanceFor(Ajv);
  try {
    ajv.compile(schema);
    return { ok: true };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  } finally {
    // Forget it again: tools may reuse the same $id, and a later compile must not see this one.
    ajv.removeSchema(schema as object);
  }
}

// Creating an instance compiles the meta-schemas (~50 ms), so keep one per dialect.
const instances = new Map<AjvClass, InstanceType<AjvClass>>();
function instanceFor(Ajv: AjvClass): InstanceType<AjvClass> {
  let ajv = instances.get(Ajv);
  if (!ajv) {
    ajv = new Ajv({ strict: false, validateFormats: false });
    instances.set(Ajv, ajv);
  }
  return ajv;
}
