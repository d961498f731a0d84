// Errata to GitLab's OpenAPI description (test-harness/specs/gitlab/openapi-subset.json, GitLab
// 19.5): the places where the description, generated from Grape `desc`/`params` blocks, says less
// or other than the API does (specs/gitlab/SOURCE.md, "Where the description is lossy"). Each
// erratum names the REST docs page it follows and replaces the described schema with one written
// from that page (OpenAPI 3.0 dialect, so `nullable` is translated like the rest) — nothing is
// exempted from validation. spec.ts applies them to a copy of the document before the OpenAPI 3.0
// adapter reads it.

type Schema = Record<string, unknown>;

export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
/** A nullable `$ref` (OpenAPI 3.0 cannot put `nullable` beside `$ref`). */
export const nref = (name: string): Schema => ({ nullable: true, allOf: [ref(name)] });
export const list = (name: string): Schema => ({ type: 'array', items: ref(name) });
export const str: Schema = { type: 'string', nullable: true };
export const time: Schema = { type: 'string', format: 'date-time', nullable: true };
export const int: Schema = { type: 'integer', nullable: true };
export const num: Schema = { type: 'number', nullable: true };
export const bool: Schema = { type: 'boolean', nullable: true };

export const DOCS = 'https://docs.gitlab.com/api';

/** Replaces the response of one operation and status. */
export interface ResponseErratum {
  method: string;
  /** The description's path, e.g. "/api/v4/projects/{id}/repository/files/{file_path}". */
  path: string;
  status: string;
  /** The REST docs page followed. */
  docs: string;
  /** What the description says (why it is replaced). */
  described: string;
  /** The JSON body as documented; absent when the body is not JSON. */
  json?: Schema;
  /** Media types of a non-JSON body as documented (checked against the reply's content type). */
  mediaTypes?: string[];
}

/** Renames a path of the description to the path the API serves. */
export interface PathErratum {
  path: string;
  to: string;
  docs: string;
  described: string;
}

/** Replaces properties of component schemas (the same fix on each schema GitLab repeats them in). */
export interface SchemaErratum {
  schemas: string[];
  docs: string;
  described: string;
  properties: Record<string, Schema>;
}

/** Schemas the errata add to `components.schemas`, written from the docs pages named. */
export const ERRATA_SCHEMAS: Record<string, Schema> = {
  // https://docs.gitlab.com/api/rest/troubleshooting/#status-codes and "Data validation and error
  // reporting" on https://docs.gitlab.com/api/rest/: API errors are {"message": …} (a string, a
  // list of strings, or field → list of strings); parameter and routing errors {"error": "…"};
  // OAuth scope errors add error_description and scope.
  ErrataGitLabError: {
    type: 'object',
    properties: {
      message: {
        anyOf: [
          { type: 'string' },
          { type: 'array', items: { type: 'string' } },
          {
            type: 'object',
            additionalProperties: {
              anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
            },
          },
        ],
      },
      error: { type: 'string' },
      error_description: { type: 'string' },
      scope: { type: 'string' },
    },
    anyOf: [{ required: ['message'] }, { required: ['error'] }],
  },
  // https://docs.gitlab.com/api/repository_files/#get-file-from-repository
  ErrataRepositoryFile: {
    type: 'object',
    required: [
      'file_name',
      'file_path',
      'size',
      'encoding',
      'content',
      'ref',
      'blob_id',
      'commit_id',
      'last_commit_id',
    ],
    properties: {
      file_name: { type: 'string' },
      file_path: { type: 'string' },
      size: { type: 'integer' },
      encoding: { type: 'string', enum: ['base64', 'text'] },
      content: { type: 'string' },
      content_sha256: { type: 'string' },
      ref: { type: 'string' },
      blob_id: { type: 'string' },
      commit_id: { type: 'string' },
      last_commit_id: { type: 'string' },
      execute_filemode: { type: 'boolean' },
    },
  },
  // https://docs.gitlab.com/api/search/#scope-blobs-1: one matching fragment of a file
  ErrataSearchBlob: {
    type: 'object',
    required: ['basename', 'data', 'path', 'filename', 'ref', 'startline', 'project_id'],
    properties: {
      basename: { type: 'string' },
      data: { type: 'string' },
      path: { type: 'string' },
      filename: { type: 'string' },
      id: { type: 'string', nullable: true },
      ref: { type: 'string' },
      startline: { type: 'integer' },
      project_id: { type: 'integer' },
    },
  },
  // https://docs.gitlab.com/api/repository_files/#create-new-file-in-repository (and update)
  ErrataFileCommit: {
    type: 'object',
    required: ['file_path', 'branch'],
    properties: { file_path: { type: 'string' }, branch: { type: 'string' } },
  },
};

/** The error statuses GitLab may send from any operation, with {@link ERRATA_SCHEMAS}' error body. */
export const COMMON_ERROR_STATUSES = [400, 401, 403, 404, 405, 406, 409, 412, 422, 429, 500, 502, 503, 504];

/** Every 4xx/5xx the description declares without a body gets GitLab's error body (docs above). */
export const ERROR_BODY_ERRATUM = {
  docs: `${DOCS}/rest/troubleshooting/#status-codes`,
  described: 'error responses (400, 401, 403, 404, 409, 422, …) declared with no content',
  json: ref('ErrataGitLabError'),
};

const P = '/api/v4/projects/{id}';

export const PATH_ERRATA: PathErratum[] = [
  {
    path: `${P}/(-/)search`,
    to: `${P}/search`,
    docs: `${DOCS}/search/#project-search-api`,
    described: "Grape's optional `-/` segment written into the path as `(-/)`",
  },
  {
    path: '/api/v4/groups/{id}/(-/)search',
    to: '/api/v4/groups/{id}/search',
    docs: `${DOCS}/search/#group-search-api`,
    described: "Grape's optional `-/` segment written into the path as `(-/)`",
  },
];

export const RESPONSE_ERRATA: ResponseErratum[] = [
  {
    method: 'GET',
    path: `${P}/repository/files/{file_path}`,
    status: '200',
    docs: `${DOCS}/repository_files/#get-file-from-repository`,
    described: '200 with no content',
    json: ref('ErrataRepositoryFile'),
  },
  {
    method: 'POST',
    path: `${P}/repository/files/{file_path}`,
    status: '201',
    docs: `${DOCS}/repository_files/#create-new-file-in-repository`,
    described: '201 with no content (request body declared as a multipart `file`)',
    json: ref('ErrataFileCommit'),
  },
  {
    method: 'PUT',
    path: `${P}/repository/files/{file_path}`,
    status: '200',
    docs: `${DOCS}/repository_files/#update-existing-file-in-repository`,
    described: '200 with no content (request body declared as a multipart `file`)',
    json: ref('ErrataFileCommit'),
  },
  {
    method: 'GET',
    path: `${P}/repository/files/{file_path}/raw`,
    status: '200',
    docs: `${DOCS}/repository_files/#get-raw-file-from-repository`,
    described: 'application/octet-stream only; text files come as text/plain',
    mediaTypes: ['text/plain', 'application/octet-stream'],
  },
  {
    method: 'POST',
    path: `${P}/repository/commits`,
    status: '201',
    docs: `${DOCS}/commits/#create-a-commit-with-multiple-files-and-actions`,
    described:
      'only 200 (Grape answers a POST with 201 Created); request body declared as a multipart `file`',
    json: ref('APIEntitiesCommitDetail'),
  },
  {
    method: 'GET',
    path: `${P}/jobs/{job_id}/trace`,
    status: '200',
    docs: `${DOCS}/jobs/#get-a-log-file`,
    described: 'a JSON APIEntitiesCiJob; the log is plain text',
    mediaTypes: ['text/plain'],
  },
  ...(
    [
      ['/issues', 'APIEntitiesIssue', 'issues/#list-project-issues'],
      ['/issues/{noteable_id}/notes', 'APIEntitiesNote', 'notes/#list-project-issue-notes'],
      ['/merge_requests/{noteable_id}/notes', 'APIEntitiesNote', 'notes/#list-all-merge-request-notes'],
      [
        '/merge_requests/{noteable_id}/discussions',
        'APIEntitiesDiscussion',
        'discussions/#list-project-merge-request-discussion-items',
      ],
      ['/repository/tree', 'APIEntitiesTreeObject', 'repositories/#list-repository-tree'],
    ] as const
  ).map(
    ([path, entity, page]): ResponseErratum => ({
      method: 'GET',
      path: `${P}${path}`,
      status: '200',
      docs: `${DOCS}/${page}`,
      described: `one ${entity} object; the endpoint lists them`,
      json: list(entity),
    }),
  ),
  {
    method: 'GET',
    path: `${P}/search`,
    status: '200',
    docs: `${DOCS}/search/#scope-blobs-1`,
    described: '200 with no content (the blobs scope answers a list of fragments)',
    json: list('ErrataSearchBlob'),
  },
  {
    method: 'GET',
    path: '/api/v4/groups/{id}/search',
    status: '200',
    docs: `${DOCS}/search/#scope-blobs`,
    described: '200 with no content (the blobs scope answers a list of fragments)',
    json: list('ErrataSearchBlob'),
  },
  {
    method: 'GET',
    path: '/api/v4/projects',
    status: '200',
    docs: `${DOCS}/projects/#list-all-projects`,
    described: 'items APIEntitiesBasicProjectDetails; without simple=true each item is the full project',
    json: list('APIEntitiesProject'),
  },
];
