// Errata to GitLab's description, part 2: entity schemas whose properties the description types
// too narrowly (never `nullable`, strings for integers and booleans, a single `$ref` for a list).
// Each names the REST docs page its replacement schema is written from; see errata.ts.
import { bool, DOCS, int, list, nref, num, type SchemaErratum, str, time } from './errata.js';

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
  {
    schemas: ['APIEntitiesDraftNote'],
    docs: `${DOCS}/draft_notes/#list-all-merge-request-draft-notes`,
    described: `${NULLABLE} (the docs' example: "discussion_id": nil, "commit_id": nil, "line_code": nil)`,
    properties: { discussion_id: str, commit_id: str, line_code: str },
  },
];
