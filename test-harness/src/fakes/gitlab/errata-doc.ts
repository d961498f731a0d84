// The errata as a Markdown page (test-harness/specs/gitlab/ERRATA.md), generated from
// errata.ts and errata-schemas.ts so that the page and the applied errata cannot drift apart
// (a test compares the committed page with this rendering).
import {
  COMMON_ERROR_STATUSES,
  ERRATA_SCHEMAS,
  ERROR_BODY_ERRATUM,
  PATH_ERRATA,
  RESPONSE_ERRATA,
} from './errata.js';
import { SCHEMA_ERRATA } from './errata-schemas.js';

const cell = (s: string) => s.replace(/\|/g, '\\|');

/** ERRATA.md's content: one table row per erratum (operation or schema, what is described, docs page). */
export function renderErrata(): string {
  const out = [
    '# Errata to GitLab’s OpenAPI description (generated)',
    '',
    'Generated from `src/fakes/gitlab/errata.ts` and `errata-schemas.ts` (`fake-gitlab.test.ts` checks this',
    'page is current; `REFMCP_WRITE_ERRATA=1 npx vitest run test/fake-gitlab.test.ts` rewrites it). Each erratum',
    'replaces a schema of `openapi-subset.json` with one written from the REST docs page named; none exempts',
    'anything from validation. `gitlabSpec()` applies them and refuses to load if one names an operation,',
    'schema or property the subset lacks.',
    '',
    '## Paths',
    '',
    '| described path | served path | described | docs |',
    '| --- | --- | --- | --- |',
    ...PATH_ERRATA.map((e) => `| ${e.path} | ${e.to} | ${cell(e.described)} | ${e.docs} |`),
    '',
    '## Responses',
    '',
    '| operation | status | described | now (from the docs) | docs |',
    '| --- | --- | --- | --- | --- |',
    ...RESPONSE_ERRATA.map((e) => {
      const now = [
        ...(e.json ? [`JSON ${JSON.stringify(e.json).replace(/#\/components\/schemas\//g, '')}`] : []),
        ...(e.mediaTypes ? [`content types ${e.mediaTypes.join(', ')}`] : []),
      ].join('; ');
      return `| ${e.method} ${e.path} | ${e.status} | ${cell(e.described)} | ${cell(now)} | ${e.docs} |`;
    }),
    `| every operation | declared 4xx without content | ${ERROR_BODY_ERRATUM.described} | JSON ErrataGitLabError | ${ERROR_BODY_ERRATUM.docs} |`,
    `| every operation | undeclared ${COMMON_ERROR_STATUSES.join(', ')} | not declared | JSON ErrataGitLabError (a 429 may be text/plain "Retry later") | ${ERROR_BODY_ERRATUM.docs} |`,
    '',
    '## Entity properties',
    '',
    '| schemas | properties | described | docs |',
    '| --- | --- | --- | --- |',
    ...SCHEMA_ERRATA.map(
      (e) =>
        `| ${e.schemas.join(', ')} | ${Object.keys(e.properties).join(', ')} | ${cell(e.described)} | ${e.docs} |`,
    ),
    '',
    '## Schemas added',
    '',
    ...Object.keys(ERRATA_SCHEMAS).map((name) => `- \`${name}\``),
    '',
  ];
  return out.join('\n');
}
