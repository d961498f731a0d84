// The spec-source interface: what the spec check asks of a vendor's API description, whatever its
// format (OpenAPI 3.0 for GitHub and GitLab, JSON Schemas per method for Slack, Google Discovery
// for Drive). Each vendor brings one adapter implementing it; the check (check.ts) is shared.

/** A JSON Schema (draft 2020-12 unless its `$schema` says otherwise). */
export type JsonSchema = Record<string, unknown>;

/**
 * One vendor's API description, asked about operations by method and path template. Templates are
 * the fake's route patterns in `{param}` form (`routeTemplate("/repos/:owner/:repo")` →
 * "/repos/{owner}/{repo}"), relative to the fake's prefix; an adapter maps them to its own keys
 * (a path prefix, a Slack method name, a Discovery method id) and may ignore parameter names.
 */
export interface SpecSource {
  /** Names the description in failure messages, e.g. "GitHub REST (api.github.com, @octokit/openapi)". */
  readonly name: string;
  /** True when the description has the operation `method` (upper case) on `template`. */
  hasOperation(method: string, template: string): boolean;
  /**
   * The response statuses the operation declares, as the description writes them ("200", "404",
   * and where the format has them "4XX" or "default"); empty for an unknown operation.
   */
  declaredStatuses(method: string, template: string): string[];
  /**
   * The JSON Schema the JSON body of a `status` reply must match, resolved as the format resolves
   * statuses (OpenAPI: exact, then "4XX", then "default"); undefined when the description has no
   * JSON body for it. It should carry an `$id` (the validator compiles each `$id` once) and may
   * `$ref` the schemas of {@link SpecSource.definitions} by their `$id`.
   */
  responseSchema(method: string, template: string, status: number): JsonSchema | undefined;
  /**
   * The schema of a `status` reply the vendor may send from any operation without the description
   * declaring it on each (GitHub answers 401 "Bad credentials" and 404 "Not Found" everywhere, with
   * its basic-error body); undefined when an undeclared `status` is an error. Optional.
   */
  commonResponse?(status: number): JsonSchema | undefined;
  /**
   * The media types a reply of `status` may have (e.g. ["text/plain"] for a log), checked
   * against the content type of replies whose body is not JSON; undefined when the description
   * does not say (no check). Optional: sources without it leave non-JSON bodies unchecked.
   */
  mediaTypes?(method: string, template: string, status: number): string[] | undefined;
  /**
   * Shared schemas (each with an `$id`) that response schemas reference, registered with the
   * validator once before the first validation — e.g. OpenAPI `components` — so that each is
   * compiled once for all responses. Optional.
   */
  definitions?(): JsonSchema[];
  /**
   * The JSON Schema the reply headers of `status` must match (an object of lower-case header names
   * → string values), for vendors whose headers are part of the contract (Brave's X-RateLimit-*
   * windows); undefined for no check. Optional.
   */
  headerSchema?(method: string, template: string, status: number): JsonSchema | undefined;
}
