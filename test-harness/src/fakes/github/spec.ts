// GitHub's spec source: the official OpenAPI description of api.github.com (@octokit/openapi,
// OpenAPI 3.0.3) through the OpenAPI 3.0 adapter, for the spec check of the fake GitHub.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { type OpenApi30Document, openApi30Source } from '../../spec/openapi30.js';
import type { SpecSource } from '../../spec/source.js';

let cached: SpecSource | undefined;

/** Loads GitHub's description once (~1 s, ~10 MB of JSON) as a {@link SpecSource}. */
export function githubSpec(): SpecSource {
  if (cached) return cached;
  const require = createRequire(import.meta.url);
  const dir = dirname(require.resolve('@octokit/openapi/package.json'));
  const document = JSON.parse(
    readFileSync(join(dir, 'generated/api.github.com.json'), 'utf8'),
  ) as OpenApi30Document;
  cached = openApi30Source(document, {
    name: 'GitHub REST (api.github.com, @octokit/openapi)',
    id: 'https://refmcp.invalid/github-openapi',
    // GitHub answers these from any operation (bad token, no push access, missing or hidden
    // repository) with a basic-error body, but declares them on only some operations.
    commonResponses: { 401: 'basic-error', 403: 'basic-error', 404: 'basic-error' },
  });
  return cached;
}
