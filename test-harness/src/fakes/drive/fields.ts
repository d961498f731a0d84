// Google's partial-response `fields` parameter (https://developers.google.com/drive/api/guides/fields-parameter):
// `nextPageToken,files(id,name,owners(displayName))`, `*` for everything, `a/b` for a nested
// field. Names are checked against the generated schemas, so a selection the real API would
// refuse ("Invalid field selection …") is refused here too.

import { invalidParameter } from './errors.js';
import { loadDriveSpec } from './spec.js';

/** A parsed selection: field name → sub-selection (null = the whole field). */
export type Selection = Map<string, Selection | null>;

/** Parses a `fields` value; throws Drive's 400 for unbalanced parentheses. */
export function parseFields(fields: string): Selection {
  let i = 0;
  function list(): Selection {
    const out: Selection = new Map();
    while (i < fields.length) {
      const m = /^\s*([\w*]+(?:\/[\w*]+)*)\s*/.exec(fields.slice(i));
      if (!m) invalidParameter('fields', `Invalid field selection ${fields}`);
      i += m[0].length;
      const path = (m[1] as string).split('/');
      let sub: Selection | null = null;
      if (fields[i] === '(') {
        i++;
        sub = list();
        if (fields[i] !== ')') invalidParameter('fields', `Invalid field selection ${fields}`);
        i++;
      }
      // a/b/c(x) is a(b(c(x)))
      let node: Selection | null = sub;
      for (const name of path.slice(1).reverse()) node = new Map([[name, node]]);
      out.set(path[0] as string, node);
      while (fields[i] === ' ') i++;
      if (fields[i] === ',') i++;
      else break;
    }
    return out;
  }
  const selection = list();
  if (i !== fields.length) invalidParameter('fields', `Invalid field selection ${fields}`);
  return selection;
}

type Json = Record<string, unknown>;

/** The `$defs` name an object property's schema refers to (directly, in `items`, or in `anyOf`). */
function refOf(schema: Json | undefined): string | undefined {
  if (!schema) return undefined;
  if (typeof schema.$ref === 'string') return schema.$ref.split('/').pop();
  if (schema.items) return refOf(schema.items as Json);
  for (const alt of (schema.anyOf as Json[] | undefined) ?? []) {
    const r = refOf(alt);
    if (r) return r;
  }
  return undefined;
}

/**
 * Throws Drive's 400 when `selection` names a field schema `type` (a `Schema$*` name of Drive's,
 * or of Docs' with `api: 'docs'`) lacks.
 */
export function checkFields(
  selection: Selection,
  type: string,
  whole = '',
  api: 'drive' | 'docs' = 'drive',
): void {
  const spec = loadDriveSpec();
  const defs = (api === 'docs' ? spec.docs.schemas : spec.schemas).$defs;
  const properties = (defs[type]?.properties ?? {}) as Record<string, Json>;
  for (const [name, sub] of selection) {
    if (name === '*') continue;
    if (!(name in properties)) invalidParameter('fields', `Invalid field selection ${whole || name}`);
    const ref = refOf(properties[name]);
    if (sub && ref) checkFields(sub, ref, whole, api);
  }
}

/** `value` cut down to `selection` (arrays: each element). */
export function applyFields(value: unknown, selection: Selection | null): unknown {
  if (selection === null || selection.has('*')) return value;
  if (Array.isArray(value)) return value.map((v) => applyFields(v, selection));
  if (!value || typeof value !== 'object') return value;
  const out: Json = {};
  for (const [name, sub] of selection) {
    const v = (value as Json)[name];
    if (v !== undefined) out[name] = applyFields(v, sub);
  }
  return out;
}

/**
 * The reply body `full` (of `Schema$<type>`) as `fields` selects it; `defaults` when the request
 * has no `fields` (Drive's default partial response). Throws Drive's 400 for an invalid selection.
 */
export function selectFields(
  full: unknown,
  type: string,
  fields: string | null,
  defaults: string,
  api: 'drive' | 'docs' = 'drive',
): unknown {
  const selection = parseFields(fields ?? defaults);
  checkFields(selection, type, fields ?? defaults, api);
  return applyFields(full, selection);
}
