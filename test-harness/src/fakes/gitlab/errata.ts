// Errata to GitLab's OpenAPI description (test-harness/specs/gitlab/openapi-subset.json, GitLab
// 19.5): the places where the description, generated from Grape `desc`/`params` blocks, says less
// or other than the API does (specs/gitlab/SOURCE.md, "Where the description is lossy"). Each
// erratum names the REST docs page it follows and replaces the described schema with one written
// from that page (OpenAPI 3.0 dialect, so `nullable` is translated like the rest) — nothing is
// exempted from validation. spec.ts applies them to a copy of the document before the OpenAPI 3.0
// adapter reads it.

type Schema = Record<string, unknown>;

const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
/** A nullable `$ref` (OpenAPI 3.0 cannot put `nullable` beside `$ref`). */
const nref = (name: string): Schema => ({ nullable: true, allOf: [ref(name)] });
const list = (name: string): Schema => ({ type: 'array', items: ref(name) });
const str: Schema = { type: 'string', nullable: true };
const time: Schema = { type: 'string', format: 'date-time', nullable: true };
const int: Schema = { type: 'integer', nullable: true };
const num: Schema = { type: 'number', nullable: true };
const bool: Schema = { type: 'boolean', nullable: true };

const DOCS = 'https://docs.gitlab.com/api';

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
    path: '/api/v4/projects',
    status: '200',
    docs: `${DOCS}/projects/#list-all-projects`,
    described: 'items APIEntitiesBasicProjectDetails; without simple=true each item is the full project',
    json: list('APIEntitiesProject'),
  },
];

const USERS = [
  'APIEntitiesUserBasic',
  'APIEntitiesUser',
  'APIEntitiesUserPublic',
  'APIEntitiesMergeRequestAuthor',
  'APIEntitiesMember',
];
const PROJECTS = ['APIEntitiesProject', 'APIEntitiesProjectsWithAccessAndCatalogSetting'];
const MRS = ['APIEntitiesMergeRequestBasic', 'APIEntitiesMergeRequest'];
const PIPELINES = ['APIEntitiesCiPipeline', 'APIEntitiesCiPipelineWithMetadata'];
const NULLABLE = 'scalars and objects never `nullable` (GitLab sends null for unset values)';

export const SCHEMA_ERRATA: SchemaErratum[] = [
  {
    schemas: USERS,
    docs: `${DOCS}/users/`,
    described: NULLABLE,
    properties: { avatar_url: str, public_email: str },
  },
  {
    schemas: ['APIEntitiesUserPublic', 'APIEntitiesUser'],
    docs: `${DOCS}/users/#retrieve-the-current-user`,
    described: NULLABLE,
    properties: { pronouns: str, work_information: str, local_time: str },
  },
  {
    schemas: ['APIEntitiesUserPublic'],
    docs: `${DOCS}/users/#retrieve-the-current-user`,
    described: '`last_activity_on` with format date-time; the docs show a date ("2012-05-23")',
    properties: { last_activity_on: { type: 'string', format: 'date', nullable: true } },
  },
  {
    schemas: ['APIEntitiesUserPublic'],
    docs: `${DOCS}/users/#retrieve-the-current-user`,
    described: '`identities` a single $ref for a list',
    properties: { identities: list('APIEntitiesIdentity') },
  },
  {
    schemas: ['APIEntitiesNamespaceBasic'],
    docs: `${DOCS}/namespaces/`,
    described: NULLABLE,
    properties: { parent_id: int, avatar_url: str },
  },
  {
    schemas: [...PROJECTS, 'APIEntitiesBasicProjectDetails'],
    docs: `${DOCS}/projects/#get-a-single-project`,
    described: `${NULLABLE}; \`custom_attributes\` a single $ref for a list`,
    properties: {
      description: str,
      avatar_url: str,
      readme_url: str,
      default_branch: str,
      license: nref('APIEntitiesLicenseBasic'),
      license_url: str,
      custom_attributes: list('APIEntitiesCustomAttribute'),
    },
  },
  {
    schemas: PROJECTS,
    docs: `${DOCS}/projects/#get-a-single-project`,
    described: `${NULLABLE}; \`approvals_before_merge\` typed string for an integer`,
    properties: {
      owner: nref('APIEntitiesUserBasic'),
      import_url: str,
      import_type: str,
      import_error: str,
      ci_config_path: str,
      allow_merge_on_skipped_pipeline: bool,
      marked_for_deletion_at: time,
      marked_for_deletion_on: { type: 'string', format: 'date', nullable: true },
      runner_token_expiration_interval: int,
      approvals_before_merge: int,
      forked_from_project: nref('APIEntitiesBasicProjectDetails'),
    },
  },
  {
    schemas: PROJECTS,
    docs: `${DOCS}/projects/#get-a-single-project`,
    described: '`mirror` typed string; the docs show a boolean',
    properties: { mirror: { type: 'boolean' } },
  },
  {
    schemas: ['APIEntitiesProjectAccess', 'APIEntitiesGroupAccess'],
    docs: `${DOCS}/projects/#get-a-single-project`,
    described: '`access_level` and `notification_level` typed string; the docs show integers',
    properties: { access_level: { type: 'integer' }, notification_level: { type: 'integer' } },
  },
  {
    schemas: ['APIEntitiesProjectsWithAccessAndCatalogSetting'],
    docs: `${DOCS}/projects/#get-a-single-project`,
    described:
      '`permissions.project_access` / `group_access` never null (null when the caller has no such membership)',
    properties: {
      permissions: {
        type: 'object',
        properties: {
          project_access: nref('APIEntitiesProjectAccess'),
          group_access: nref('APIEntitiesGroupAccess'),
        },
      },
    },
  },
  {
    schemas: ['APIEntitiesMember'],
    docs: `${DOCS}/members/#get-a-member-of-a-group-or-project-including-inherited-and-invited-members`,
    described: `${NULLABLE}; \`access_level\` typed string for an integer`,
    properties: { access_level: { type: 'integer', enum: [5, 10, 15, 20, 30, 40, 50] }, expires_at: str },
  },
  {
    schemas: ['APIEntitiesMetadata'],
    docs: `${DOCS}/metadata/`,
    described: NULLABLE,
    properties: {
      kas: {
        type: 'object',
        properties: {
          enabled: { type: 'boolean' },
          externalUrl: str,
          externalK8sProxyUrl: str,
          version: str,
        },
      },
    },
  },
  {
    schemas: ['APIEntitiesIssue', ...MRS],
    docs: `${DOCS}/issues/#single-project-issue`,
    described: `${NULLABLE}; \`assignees\` a single $ref for a list`,
    properties: {
      description: str,
      closed_at: time,
      closed_by: nref('APIEntitiesUserBasic'),
      milestone: nref('APIEntitiesMilestone'),
      assignee: nref('APIEntitiesUserBasic'),
      assignees: list('APIEntitiesUserBasic'),
    },
  },
  {
    schemas: ['APIEntitiesIssue'],
    docs: `${DOCS}/issues/#single-project-issue`,
    described: NULLABLE,
    properties: {
      due_date: { type: 'string', format: 'date', nullable: true },
      moved_to_id: int,
      service_desk_reply_to: str,
      epic: nref('EpicBaseEntity'),
      iteration: nref('APIEntitiesIteration'),
      _links: {
        type: 'object',
        properties: {
          self: { type: 'string' },
          notes: { type: 'string' },
          award_emoji: { type: 'string' },
          project: { type: 'string' },
          closed_as_duplicate_of: str,
        },
      },
    },
  },
  {
    schemas: MRS,
    docs: `${DOCS}/merge_requests/#get-single-mr`,
    described: `${NULLABLE}; \`reviewers\` a single $ref for a list`,
    properties: {
      reviewers: list('APIEntitiesUserBasic'),
      merged_at: time,
      merged_by: nref('APIEntitiesUserBasic'),
      merge_user: nref('APIEntitiesUserBasic'),
      merge_commit_sha: str,
      squash_commit_sha: str,
      merge_after: time,
      prepared_at: time,
      should_remove_source_branch: bool,
      approvals_before_merge: int,
      sha: str,
    },
  },
  {
    schemas: ['APIEntitiesMergeRequest'],
    docs: `${DOCS}/merge_requests/#get-single-mr`,
    described: NULLABLE,
    properties: {
      diff_refs: nref('APIEntitiesDiffRefs'),
      pipeline: nref('APIEntitiesCiPipelineBasic'),
      head_pipeline: nref('APIEntitiesCiPipeline'),
      latest_build_started_at: time,
      latest_build_finished_at: time,
      first_deployed_to_production_at: time,
      merge_error: str,
    },
  },
  {
    schemas: ['APIEntitiesIssuableTimeStats'],
    docs: `${DOCS}/issues/#single-project-issue`,
    described: NULLABLE,
    properties: { human_time_estimate: str, human_total_time_spent: str },
  },
  {
    schemas: ['APIEntitiesMergeRequestApprovals'],
    docs: `${DOCS}/merge_request_approvals/#approve-a-merge-request`,
    described: '`approved_by` a single $ref for a list of {user, approved_at}',
    properties: { approved_by: list('APIEntitiesApprovals') },
  },
  {
    schemas: ['APIEntitiesNote'],
    docs: `${DOCS}/notes/`,
    described: `${NULLABLE}; \`suggestions\` a single $ref for a list`,
    properties: {
      type: { type: 'string', nullable: true, enum: ['DiscussionNote', 'DiffNote'] },
      commit_id: str,
      resolved_by: nref('APIEntitiesUserBasic'),
      resolved_at: time,
      suggestions: list('APIEntitiesSuggestion'),
    },
  },
  {
    schemas: ['APIEntitiesDiscussion'],
    docs: `${DOCS}/discussions/`,
    described: '`notes` a single $ref for a list',
    properties: { notes: list('APIEntitiesNote') },
  },
  {
    schemas: ['APIEntitiesCommitDetail'],
    docs: `${DOCS}/commits/#get-a-single-commit`,
    described: NULLABLE,
    properties: { status: str, last_pipeline: nref('APIEntitiesCiPipelineBasic') },
  },
  {
    schemas: ['APIEntitiesCompare'],
    docs: `${DOCS}/repositories/#compare-branches-tags-or-commits`,
    described: `${NULLABLE} (\`commit\` is null when there is nothing to compare)`,
    properties: { commit: nref('APIEntitiesCommit') },
  },
  {
    schemas: PIPELINES,
    docs: `${DOCS}/pipelines/#get-a-single-pipeline`,
    described: NULLABLE,
    properties: {
      started_at: time,
      finished_at: time,
      committed_at: time,
      coverage: num,
      duration: int,
      queued_duration: int,
      yaml_errors: str,
      user: nref('APIEntitiesUserBasic'),
    },
  },
  {
    schemas: ['APIEntitiesCiPipelineWithMetadata'],
    docs: `${DOCS}/pipelines/#get-a-single-pipeline`,
    described: NULLABLE,
    properties: { name: str },
  },
  {
    schemas: ['DetailedStatusEntity'],
    docs: `${DOCS}/pipelines/#get-a-single-pipeline`,
    described: NULLABLE,
    properties: { illustration: { type: 'object', nullable: true } },
  },
  {
    schemas: ['APIEntitiesCiJob'],
    docs: `${DOCS}/jobs/#get-a-single-job`,
    described: NULLABLE,
    properties: {
      coverage: num,
      started_at: time,
      finished_at: time,
      erased_at: time,
      artifacts_expire_at: time,
      duration: num,
      queued_duration: num,
      user: nref('APIEntitiesUser'),
      commit: nref('APIEntitiesCommit'),
      runner: nref('APIEntitiesCiRunner'),
      runner_manager: nref('APIEntitiesCiRunnerManager'),
      failure_reason: str,
    },
  },
  {
    schemas: ['APIEntitiesCiJob'],
    docs: `${DOCS}/jobs/#get-a-single-job`,
    described: '`project.ci_job_token_scope_enabled` typed string; the docs show a boolean',
    properties: {
      project: { type: 'object', properties: { ci_job_token_scope_enabled: { type: 'boolean' } } },
    },
  },
  {
    schemas: ['APIEntitiesCiJobArtifact'],
    docs: `${DOCS}/jobs/#get-a-single-job`,
    described: `${NULLABLE} (a trace artifact has "file_format": null)`,
    properties: { file_format: { type: 'string', nullable: true, enum: ['raw', 'zip', 'gzip'] } },
  },
];
