// GitLab's GraphQL schema as far as the fake serves it: the subset in
// test-harness/specs/gitlab/graphql-subset.graphql (cut from a GitLab schema dump, with errata;
// specs/gitlab/SOURCE.md) built once per process, and the check every query the fake GitLab
// receives goes through: graphql-js's parse and validate against it. A query asking for a type or
// field outside the subset fails validation, so the subset grows with what the server sends.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  buildSchema,
  type DocumentNode,
  type GraphQLError,
  type GraphQLSchema,
  parse,
  validate,
} from 'graphql';

// test-harness/specs from src/fakes/gitlab (sources), from test-harness/dist (the bundled CLI and
// demo: `mcp-harness fake gitlab`) or from a sibling package's dist (the bench's bundle).
const CANDIDATES = ['../../../specs/', '../specs/', '../../test-harness/specs/'].map((dir) =>
  fileURLToPath(new URL(`${dir}gitlab/graphql-subset.graphql`, import.meta.url)),
);

/** Where the subset lives: the first candidate that exists (relative to this file or its bundle). */
export const GITLAB_GRAPHQL_SUBSET = CANDIDATES.find((path) => existsSync(path)) ?? (CANDIDATES[0] as string);

let cached: GraphQLSchema | undefined;

/** The subset schema, built once per process. */
export function gitlabGraphqlSchema(): GraphQLSchema {
  cached ??= buildSchema(readFileSync(GITLAB_GRAPHQL_SUBSET, 'utf8'));
  return cached;
}

/** A parsed, schema-valid operation, or the errors GitLab would answer with instead. */
export type Checked = { document: DocumentNode; errors?: undefined } | { errors: readonly GraphQLError[] };

/** Parses `query` and validates it against the subset (syntax errors and validation errors alike). */
export function checkGitLabQuery(query: string): Checked {
  let document: DocumentNode;
  try {
    document = parse(query, { maxTokens: 10_000 });
  } catch (error) {
    return { errors: [error as GraphQLError] };
  }
  const errors = validate(gitlabGraphqlSchema(), document);
  return errors.length ? { errors } : { document };
}
