// The spec check of a vendor fake: every route its traffic hit exists in the vendor's description
// and every JSON reply body validates against the described schema for that status.
import { validateJson } from '@refmcp/shared/json-schema';
import type { Exchange } from '../fake-api/index.js';
import { routeTemplate } from '../fake-api/index.js';
import type { JsonSchema, SpecSource } from './source.js';

const registered = new WeakSet<SpecSource>();

/** Registers `source`'s definitions with the validator once (validateJson keeps schemas with an `$id`). */
function register(source: SpecSource): void {
  if (registered.has(source)) return;
  for (const definition of source.definitions?.() ?? []) validateJson(definition, null);
  registered.add(source);
}

const ONE_OF_OVERLAP = /must match exactly one schema in oneOf$/;

/**
 * Problems of `body` as the `status` reply of `method` `template` (empty when valid); throws when
 * the description has no JSON body for it. One leniency, stated: where a description's `oneOf`
 * alternatives overlap (GitHub's contents PUT 409 is `oneOf: [basic-error,
 * repository-rule-violation-error]`, and any basic error matches both), ajv reports only "must
 * match exactly one schema in oneOf" — the body matched more than one alternative. That is
 * accepted and reported through `overlaps` ("METHOD template status: …").
 */
export function validateReply(
  source: SpecSource,
  method: string,
  template: string,
  status: number,
  body: unknown,
  overlaps: string[] = [],
): string[] {
  return validateAgainst(
    source,
    source.responseSchema(method, template, status),
    method,
    template,
    status,
    body,
    overlaps,
  );
}

function validateAgainst(
  source: SpecSource,
  schema: JsonSchema | undefined,
  method: string,
  template: string,
  status: number,
  body: unknown,
  overlaps: string[],
): string[] {
  if (!schema)
    throw new Error(`${method} ${template} ${status}: no application/json response in the description`);
  register(source);
  const errors = validateJson(schema, body);
  if (errors.length && errors.every((e) => ONE_OF_OVERLAP.test(e))) {
    overlaps.push(
      `${method} ${template} ${status}: ${errors.join('; ')} (alternatives overlap; matched more than one)`,
    );
    return [];
  }
  return errors;
}

/**
 * The routes a fake serves that `source` does not describe, as "METHOD template" (empty = all
 * described): for a fake's own test, covering routes the suite's traffic may not reach.
 */
export function undescribedRoutes(
  routes: ReadonlyArray<readonly [string, string]>,
  source: SpecSource,
): string[] {
  return routes
    .filter(([method, template]) => !source.hasOperation(method, template))
    .map((r) => r.join(' '));
}

/** Outcome of {@link checkTraffic}. */
export interface TrafficReport {
  /** One line per distinct problem: "METHOD template → status: what (N×, e.g. target)". Empty = pass. */
  problems: string[];
  /** Where overlapping `oneOf` alternatives were accepted (see {@link validateReply}). */
  overlaps: string[];
  /** Exchanges checked, JSON bodies validated, and those skipped (injected faults, no route matched). */
  checked: number;
  validated: number;
  faults: number;
  unrouted: number;
}

/**
 * Checks recorded `traffic` against the vendor descriptions in `sources` (by `Exchange.vendor`;
 * exchanges of other vendors are ignored). For each exchange a route answered: the operation
 * exists; the status is declared, or is one of the vendor's common responses
 * (`SpecSource.commonResponse`); a JSON body validates against the described (or common) schema,
 * and a JSON body where a declared status describes none is a problem; a non-JSON body's content
 * type must be one the source's `mediaTypes` names (when it has that member). Injected faults (a test's
 * own canned replies) and requests no route matched (the fake's not-found reply) are counted, not
 * checked. Problems are deduplicated by operation, status and error, each with a count and one
 * example request target.
 */
export function checkTraffic(traffic: Exchange[], sources: Record<string, SpecSource>): TrafficReport {
  const found = new Map<string, { count: number; example: string }>();
  const report: TrafficReport = {
    problems: [],
    overlaps: [],
    checked: 0,
    validated: 0,
    faults: 0,
    unrouted: 0,
  };
  const problem = (key: string, target: string) => {
    const seen = found.get(key);
    if (seen) seen.count++;
    else found.set(key, { count: 1, example: target });
  };
  const overlapSet = new Set<string>();
  for (const x of traffic) {
    const source = sources[x.vendor];
    if (!source) continue;
    if (x.fault) {
      report.faults++;
      continue;
    }
    if (!x.route) {
      report.unrouted++;
      continue;
    }
    report.checked++;
    const template = routeTemplate(x.route);
    const where = `${x.method} ${template} → ${x.status}`;
    if (!source.hasOperation(x.method, template)) {
      problem(`${x.method} ${template}: not an operation of ${source.name}`, x.target);
      continue;
    }
    const declared = source.declaredStatuses(x.method, template);
    let schema: JsonSchema | undefined;
    if (declared.includes(String(x.status))) {
      schema = source.responseSchema(x.method, template, x.status);
      if (!schema && x.body !== undefined) {
        problem(`${where}: JSON body where the description declares none`, x.target);
        continue;
      }
    } else {
      schema = source.commonResponse?.(x.status);
      if (!schema) {
        problem(`${where}: status not declared (declared: ${declared.join(', ')})`, x.target);
        continue;
      }
    }
    if (x.raw !== undefined && source.mediaTypes) {
      const allowed = source.mediaTypes(x.method, template, x.status);
      const got = (x.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
      if (allowed && !allowed.includes(got))
        problem(`${where}: content type ${got || '(none)'}, described: ${allowed.join(', ')}`, x.target);
    }
    const headerSchema = source.headerSchema?.(x.method, template, x.status);
    if (headerSchema)
      for (const error of validateAgainst(
        source,
        headerSchema,
        x.method,
        template,
        x.status,
        x.headers,
        [],
      ).slice(0, 5))
        problem(`${where}: headers ${error}`, x.target);
    if (x.body === undefined || !schema) continue;
    report.validated++;
    const overlaps: string[] = [];
    const errors = validateAgainst(source, schema, x.method, template, x.status, x.body, overlaps);
    for (const o of overlaps) overlapSet.add(o.split(':')[0] ?? o);
    for (const error of errors.slice(0, 5)) problem(`${where}: ${error}`, x.target);
  }
  report.problems = [...found].map(([key, { count, example }]) => `${key} (${count}×, e.g. ${example})`);
  report.overlaps = [...overlapSet];
  return report;
}
