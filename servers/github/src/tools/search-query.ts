/**
 * Search queries under --repos: the operator's scope is appended as GitHub qualifiers
 * (`repo:a/b user:c`, OR-ed by GitHub), so results come from the allowed repositories; results
 * are also filtered afterwards, because a query may carry its own qualifiers.
 */
import type { Config } from '../config.js';

/** `q` confined to the scope (unchanged without --repos). */
export function searchQuery(config: Config, q: string): string {
  const qualifiers = config.scope?.searchQualifiers();
  return qualifiers ? `${q} ${qualifiers}` : q;
}
