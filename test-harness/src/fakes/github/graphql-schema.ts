// GitHub's public GraphQL schema (the npm package @octokit/graphql-schema, which ships GitHub's
// published schema.graphql) built once per process, and the check every query the fake GitHub
// receives goes through: graphql-js's parse and validate against that schema.
import { readFileSync } from 'node:fs';
import {
  buildSchema,
  type DocumentNode,
  type GraphQLError,
  type GraphQLSchema,
  parse,
  validate,
} from 'graphql';

let cached: GraphQLSchema | undefined;

/**
 * GitHub's GraphQL schema (~0.5 s to build the 1.2 MB SDL, once). Built with `assumeValidSDL`:
 * GitHub's published SDL repeats two fields of EnterpriseOwnerInfo, which graphql-js's SDL check
 * refuses; nothing the fake serves touches them, and operations are still fully validated.
 */
export function githubGraphqlSchema(): GraphQLSchema {
  if (cached) return cached;
  const entry = new URL(import.meta.resolve('@octokit/graphql-schema'));
  const sdl = readFileSync(new URL('schema.graphql', entry), 'utf8');
  cached = buildSchema(sdl, { assumeValidSDL: true });
  return cached;
}

/** A parsed, schema-valid operation, or the errors GitHub would answer with instead. */
export type Checked = { document: DocumentNode; errors?: undefined } | { errors: readonly GraphQLError[] };

/** Parses `query` and validates it against GitHub's schema (syntax errors and validation errors alike). */
export function checkGitHubQuery(query: string): Checked {
  let document: DocumentNode;
  try {
    document = parse(query, { maxTokens: 50_000 });
  } catch (error) {
    return { errors: [error as GraphQLError] };
  }
  const errors = validate(githubGraphqlSchema(), document);
  return errors.length ? { errors } : { document };
}
