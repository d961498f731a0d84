// Generates test-harness/specs/slack from @slack/web-api's own response types: one closed JSON
// Schema per Web API method the fake Slack serves (ts-json-schema-generator over
// dist/types/response/<Type>.d.ts) and methods.json, every method name of the client's method tree
// (walked on `new WebClient()`), formatted by the repository's Biome. Run:
// `node test-harness/scripts/slack-schemas.mjs`, then `git diff` shows what changed. See specs/slack/SOURCE.md.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WebClient } from '@slack/web-api';
import { createGenerator } from 'ts-json-schema-generator';

/** The methods the fake serves, with the response type @slack/web-api ships for each. */
export const SLACK_METHODS = {
  'auth.test': 'AuthTestResponse',
  'chat.delete': 'ChatDeleteResponse',
  'chat.deleteScheduledMessage': 'ChatDeleteScheduledMessageResponse',
  'chat.getPermalink': 'ChatGetPermalinkResponse',
  'chat.postMessage': 'ChatPostMessageResponse',
  'chat.scheduleMessage': 'ChatScheduleMessageResponse',
  'chat.scheduledMessages.list': 'ChatScheduledMessagesListResponse',
  'chat.update': 'ChatUpdateResponse',
  'files.info': 'FilesInfoResponse',
  'conversations.history': 'ConversationsHistoryResponse',
  'conversations.info': 'ConversationsInfoResponse',
  'conversations.list': 'ConversationsListResponse',
  'conversations.mark': 'ConversationsMarkResponse',
  'conversations.replies': 'ConversationsRepliesResponse',
  'reactions.add': 'ReactionsAddResponse',
  'reactions.remove': 'ReactionsRemoveResponse',
  'search.messages': 'SearchMessagesResponse',
  'users.info': 'UsersInfoResponse',
  'users.list': 'UsersListResponse',
  'users.lookupByEmail': 'UsersLookupByEmailResponse',
  'users.profile.get': 'UsersProfileGetResponse',
};

const require = createRequire(import.meta.url);
const out = fileURLToPath(new URL('../specs/slack/', import.meta.url));
const pkgDir = dirname(require.resolve('@slack/web-api/package.json'));
const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
const generatorVersion = JSON.parse(
  readFileSync(require.resolve('ts-json-schema-generator/package.json'), 'utf8'),
).version;

/** Every method of the client's tree (`conversations.history`, `admin.apps.approve`, …), sorted. */
function clientMethods() {
  const names = [];
  const walk = (node, path) => {
    for (const key of Object.keys(node)) {
      const value = node[key];
      if (typeof value === 'function') names.push([...path, key].join('.'));
      else if (value && typeof value === 'object' && path.length < 5) walk(value, [...path, key]);
    }
  };
  const client = new WebClient();
  // Own properties of the client that are method groups (not its config, logger or queue).
  for (const key of Object.keys(client)) {
    const value = client[key];
    if (value && typeof value === 'object' && !Array.isArray(value) && /^[a-z]+$/.test(key)) {
      const before = names.length;
      walk(value, [key]);
      if (names.length === before) continue;
    }
  }
  return names.filter((n) => n.includes('.')).sort();
}

/**
 * The closed schema of `type`: the d.ts with the client's `WebAPICallResult &` wrapper removed
 * (what the client adds to every result, not what Slack sends), every object closed
 * (additionalProperties: false), `ok` required (Slack sends it on every answer; WebAPICallResult
 * types it as required), and an `$id`.
 */
function methodSchema(method, type, dir) {
  const source = readFileSync(join(pkgDir, 'dist/types/response', `${type}.d.ts`), 'utf8');
  const wrapper = `export type ${type} = WebAPICallResult & {`;
  if (!source.includes(wrapper)) throw new Error(`${type}: no "${wrapper}" to unwrap`);
  const unwrapped = source
    .replace(/^import type \{ WebAPICallResult \} from '\.\.\/\.\.\/WebClient';\n/m, '')
    .replace(wrapper, `export type ${type} = {`);
  const file = join(dir, `${type}.d.ts`);
  writeFileSync(file, unwrapped);
  const schema = createGenerator({
    path: file,
    type,
    additionalProperties: false,
    skipTypeCheck: true,
    expose: 'all',
    topRef: false,
    jsDoc: 'none',
    sortProps: true,
  }).createSchema(type);
  return {
    $schema: schema.$schema,
    $id: `https://refmcp.invalid/slack/${method}`,
    title: `${method} (${type} of ${pkg.name} ${pkg.version})`,
    ...schema,
    required: ['ok'],
  };
}

/** $id of the Block Kit schema the message schemas' `blocks` items may also match. */
const BLOCKS_ID = 'https://refmcp.invalid/slack/blocks';
const typesDir = dirname(createRequire(join(pkgDir, 'package.json')).resolve('@slack/types/package.json'));
const typesPkg = JSON.parse(readFileSync(join(typesDir, 'package.json'), 'utf8'));

/**
 * Block Kit as @slack/types (the client's own dependency) types it: `KnownBlock`, closed. Messages
 * echo the blocks they were posted with, which the recorded response types cannot always hold.
 */
function blocksSchema() {
  const schema = createGenerator({
    path: join(typesDir, 'dist/block-kit/blocks.d.ts'),
    type: 'KnownBlock',
    additionalProperties: false,
    skipTypeCheck: true,
    expose: 'all',
    topRef: false,
    jsDoc: 'none',
    sortProps: true,
  }).createSchema('KnownBlock');
  return {
    $schema: schema.$schema,
    $id: BLOCKS_ID,
    title: `KnownBlock of ${typesPkg.name} ${typesPkg.version}`,
    ...schema,
  };
}

/**
 * Edit (4): every `blocks` array of a method schema takes, per item, the recorded type or a
 * Block Kit block ({@link blocksSchema}).
 */
function widenBlocks(node) {
  if (Array.isArray(node)) return node.forEach(widenBlocks);
  if (!node || typeof node !== 'object') return;
  const blocks = node.properties?.blocks;
  if (blocks?.type === 'array' && blocks.items?.$ref)
    blocks.items = { anyOf: [blocks.items, { $ref: BLOCKS_ID }] };
  for (const value of Object.values(node)) widenBlocks(value);
}

const files = {};
const tmp = mkdtempSync(join(tmpdir(), 'slack-schemas-'));
try {
  for (const [method, type] of Object.entries(SLACK_METHODS)) {
    const schema = methodSchema(method, type, tmp);
    widenBlocks(schema);
    files[`${method}.json`] = `${JSON.stringify(schema, null, 2)}\n`;
  }
  files['blocks.json'] = `${JSON.stringify(blocksSchema(), null, 2)}\n`;
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
files['methods.json'] = `${JSON.stringify(
  {
    package: `${pkg.name}@${pkg.version}`,
    generator: `ts-json-schema-generator@${generatorVersion}`,
    blocks: `${typesPkg.name}@${typesPkg.version} KnownBlock`,
    served: SLACK_METHODS,
    methods: clientMethods(),
  },
  null,
  2,
)}\n`;

mkdirSync(out, { recursive: true });
for (const [name, text] of Object.entries(files)) writeFileSync(join(out, name), text);
execFileSync('npx', ['biome', 'format', '--write', out], { stdio: 'ignore' });
process.stderr.write(`wrote ${Object.keys(files).length} files to ${out}\n`);
