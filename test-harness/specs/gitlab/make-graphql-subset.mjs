// Cuts graphql-subset.graphql (SOURCE.md, "GraphQL subset") out of a full GitLab GraphQL schema dump:
// keeps the types and fields in WANTED, drops every other definition, field, argument-free
// interface link and directive use, applies ERRATA (fields the dump predates), and prints the result.
// Usage: node make-graphql-subset.mjs <full-schema.graphql> > graphql-subset.graphql
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(new URL('../../package.json', import.meta.url));
const { buildASTSchema, Kind, parse, print, validateSchema } = require('graphql');

/** Type → fields kept (null: every value of an enum, or a scalar). */
const WANTED = {
  Query: ['namespace'],
  Mutation: ['createNote'],
  Namespace: ['visibility', 'workItem'],
  WorkItem: ['id', 'iid', 'title', 'widgets'],
  WorkItemWidget: ['type'],
  WorkItemWidgetType: null,
  WorkItemWidgetNotes: ['discussions', 'type'],
  NotesFilterType: null,
  DiscussionConnection: ['nodes', 'pageInfo'],
  PageInfo: ['endCursor', 'hasNextPage'],
  Discussion: ['id', 'notes'],
  NoteConnection: ['nodes'],
  Note: ['author', 'body', 'createdAt', 'discussion', 'id', 'internal', 'maxAccessLevelOfAuthor', 'system'],
  UserCore: ['username'],
  CreateNoteInput: ['body', 'clientMutationId', 'discussionId', 'internal', 'noteableId'],
  CreateNotePayload: ['errors', 'note'],
  Time: null,
  WorkItemID: null,
  DiscussionID: null,
  NoteID: null,
  NoteableID: null,
};

/**
 * Fields the dump lacks, added as GitLab documents them (each with its source). Applied only when
 * absent, so a newer dump that has the field keeps its own definition.
 */
const ERRATA = {
  Namespace: {
    workItem: `"""
Find a work item by IID directly associated with the namespace (project or group). Erratum: not in
the dump (added in GitLab 16.10, merge request gitlab-org/gitlab!146312; documented at
https://docs.gitlab.com/api/graphql/reference/#namespaceworkitem).
"""
workItem(
  """IID of the work item."""
  iid: String!
): WorkItem`,
  },
};

const CONTAINERS = new Set([
  Kind.OBJECT_TYPE_DEFINITION,
  Kind.INTERFACE_TYPE_DEFINITION,
  Kind.INPUT_OBJECT_TYPE_DEFINITION,
]);

const file = process.argv[2];
if (!file) throw new Error('usage: node make-graphql-subset.mjs <full-schema.graphql>');
const full = parse(readFileSync(file, 'utf8'), { noLocation: true });
const definitions = [];
for (const def of full.definitions) {
  const name = def.name?.value;
  if (!name || !(name in WANTED)) continue;
  const keep = WANTED[name];
  let out = { ...def, directives: [] };
  if (CONTAINERS.has(def.kind)) {
    const fields = def.fields
      .filter((f) => keep.includes(f.name.value))
      .map((f) => ({ ...f, directives: [] }));
    for (const [field, sdl] of Object.entries(ERRATA[name] ?? {}))
      if (!fields.some((f) => f.name.value === field))
        fields.push(parse(`type X {\n${sdl}\n}`, { noLocation: true }).definitions[0].fields[0]);
    const missing = keep.filter((f) => !fields.some((x) => x.name.value === f));
    if (missing.length) throw new Error(`${name}: the dump has no field(s) ${missing.join(', ')}`);
    fields.sort((a, b) => a.name.value.localeCompare(b.name.value));
    out = {
      ...out,
      fields,
      ...(def.interfaces ? { interfaces: def.interfaces.filter((i) => i.name.value in WANTED) } : {}),
    };
  } else if (def.kind === Kind.ENUM_TYPE_DEFINITION) {
    out = { ...out, values: def.values.map((v) => ({ ...v, directives: [] })) };
  }
  definitions.push(out);
}
const lost = Object.keys(WANTED).filter((n) => !definitions.some((d) => d.name.value === n));
if (lost.length) throw new Error(`the dump has no type(s) ${lost.join(', ')}`);
definitions.sort((a, b) => a.name.value.localeCompare(b.name.value));
const document = { kind: Kind.DOCUMENT, definitions };
const errors = validateSchema(buildASTSchema(document));
if (errors.length) throw new Error(errors.map((e) => e.message).join('\n'));
process.stdout.write(`${print(document)}\n`);
