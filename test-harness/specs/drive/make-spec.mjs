// Builds the Drive spec fixture from @googleapis/drive itself (run from test-harness/:
// `node specs/drive/make-spec.mjs`), and the Docs one from @googleapis/docs (`… make-spec.mjs docs`:
// specs/docs/, no token reply). Two sources, both inside the installed package:
//  - build/v3.js, the client Google generates from the Discovery document: each method's HTTP
//    method, URL template (servicePath + path), media upload URL, required and path parameters;
//  - build/v3.d.ts, its types: each method's parameter interface (Params$Resource$X$Y, plus the
//    StandardParameters every method takes), request body and response type, and the Schema$*
//    types, converted to closed JSON Schema (additionalProperties: false) by ts-json-schema-generator.
// The OAuth token reply is google-auth-library's CredentialRequest, converted the same way.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createGenerator } from 'ts-json-schema-generator';
import ts from 'typescript';

/** Per API: package, generated version file, namespace, Discovery id prefix, production root URL. */
const APIS = {
  drive: { version: 'v3', rootUrl: 'https://www.googleapis.com/', token: true },
  docs: { version: 'v1', rootUrl: 'https://docs.googleapis.com/', token: false },
};
const api = process.argv[2] ?? 'drive';
const spec = APIS[api];
if (!spec) throw new Error(`unknown API ${api}: one of ${Object.keys(APIS).join(', ')}`);
const namespace = `${api}_${spec.version}`;
const here = join(dirname(fileURLToPath(import.meta.url)), '..', api);
const require = createRequire(join(here, '..', '..', 'package.json'));
const pkgDir = dirname(require.resolve(`@googleapis/${api}/package.json`));
const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
const authDir = dirname(require.resolve('google-auth-library/package.json'));
const authPkg = JSON.parse(readFileSync(join(authDir, 'package.json'), 'utf8'));
const generatorPkg = JSON.parse(
  readFileSync(require.resolve('ts-json-schema-generator/package.json'), 'utf8'),
);
const JS = join(pkgDir, 'build', `${spec.version}.js`);
const DTS = join(pkgDir, 'build', `${spec.version}.d.ts`);

// --- v3.js: HTTP method and URL of each method -------------------------------------------------
const js = readFileSync(JS, 'utf8');
const http = new Map(); // "files.list" → { httpMethod, path, mediaPath, requiredParams, pathParams }
const classRe = /class Resource\$(\w+) \{([\s\S]*?)\n {4}\}\n/g;
for (const [, cls, body] of js.matchAll(classRe)) {
  const resource = cls
    .split('$')
    .map((s) => s[0].toLowerCase() + s.slice(1))
    .join('.');
  // Each method's own text: from its signature to the next method's.
  const chunks = body.split(/\n {8}(?=\w+\(paramsOrCallback)/).slice(1);
  for (const chunk of chunks) {
    const name = /^(\w+)\(/.exec(chunk)[1];
    const one = (re) => re.exec(chunk)?.[1];
    const list = (re) => [...(one(re) ?? '').matchAll(/'([^']+)'/g)].map((m) => m[1]);
    const mediaPath = one(/mediaUrl: \(rootUrl \+\s*'([^']+)'\)/);
    http.set(`${resource}.${name}`, {
      httpMethod: one(/method: '(\w+)'/),
      path: one(/url: \(rootUrl \+\s*'([^']+)'\)/),
      ...(mediaPath ? { mediaPath } : {}),
      requiredParams: list(/requiredParams: \[([^\]]*)\]/),
      pathParams: list(/pathParams: \[([^\]]*)\]/),
    });
  }
}

// --- v3.d.ts: parameters, request and response types -------------------------------------------
const source = ts.createSourceFile(DTS, readFileSync(DTS, 'utf8'), ts.ScriptTarget.Latest, true);
const interfaces = new Map();
const classes = new Map();
(function walk(node) {
  if (ts.isInterfaceDeclaration(node)) interfaces.set(node.name.text, node);
  if (ts.isClassDeclaration(node) && node.name) classes.set(node.name.text, node);
  ts.forEachChild(node, walk);
})(source);
const propName = (m) => (ts.isStringLiteral(m.name) ? m.name.text : m.name.getText());
function members(name) {
  const decl = interfaces.get(name);
  if (!decl) throw new Error(`no interface ${name}`);
  const inherited = (decl.heritageClauses ?? []).flatMap((h) => h.types.map((t) => t.expression.getText()));
  return [...inherited.flatMap(members), ...decl.members.filter(ts.isPropertySignature)];
}
const standard = members('StandardParameters')
  .map(propName)
  .filter((n) => n !== 'auth');
// Every Params$Resource$X$Y extends StandardParameters, so each operation's list includes these.
const schemaName = (text) => (text === 'void' ? null : text.replace(/^Schema\$/, ''));
const operations = [];
for (const [id, route] of http) {
  const cls = classes.get(
    `Resource$${id
      .split('.')
      .slice(0, -1)
      .map((s) => s[0].toUpperCase() + s.slice(1))
      .join('$')}`,
  );
  const method = id.split('.').at(-1);
  // The overload `name(params, callback: BodyResponseCallback<T>)` names the response type T.
  const overload = cls.members.find(
    (m) =>
      ts.isMethodDeclaration(m) &&
      m.name.getText() === method &&
      m.parameters.length === 2 &&
      m.parameters[1].name.getText() === 'callback',
  );
  const paramsType = overload.parameters[0].type.getText();
  const response = overload.parameters[1].type.typeArguments[0].getText();
  const props = members(paramsType);
  const body = props.find((p) => propName(p) === 'requestBody');
  operations.push({
    id: `${api}.${id}`,
    ...route,
    parameters: [...new Set(props.map(propName))].filter(
      (n) => !['requestBody', 'media', 'auth'].includes(n),
    ),
    request: body ? schemaName(body.type.getText()) : null,
    response: schemaName(response),
  });
}
operations.sort((a, b) => a.id.localeCompare(b.id));

// --- Schema$* types → closed JSON Schema -------------------------------------------------------
/** `type`'s schema; for a type whose own conversion fails, nothing (listed in `failed`). */
function rootSchema(generator, type, failed) {
  try {
    return generator.createSchema(type);
  } catch (error) {
    if (error?.constructor?.name !== 'DefinitionError') throw error;
    failed.push(type);
    return {};
  }
}

function convert(path, types, rename) {
  const generator = createGenerator({
    path,
    expose: 'export',
    topRef: true,
    additionalProperties: false,
    skipTypeCheck: true,
    jsDoc: 'none',
    sortProps: true,
  });
  const defs = {};
  const failed = [];
  for (const type of types)
    for (const [name, schema] of Object.entries(rootSchema(generator, type, failed).definitions ?? {})) {
      const short = rename(decodeURIComponent(name));
      if (!short) throw new Error(`${type} refers to ${name}, outside the converted types`);
      defs[short] = schema;
    }
  // A root the generator cannot start from (a cycle's member: Docs' Table and TableRow) must have
  // been converted as part of another root.
  const lost = failed.filter((type) => !defs[rename(type)]);
  if (lost.length) throw new Error(`not converted: ${lost.join(', ')}`);
  return JSON.parse(
    JSON.stringify(defs).replace(/"#\/definitions\/([^"]+)"/g, (_, n) =>
      JSON.stringify(`#/$defs/${rename(decodeURIComponent(n))}`),
    ),
  );
}
const schemaTypes = [...interfaces.keys()].filter((n) => n.startsWith('Schema$')).sort();
const prefix = `${namespace}.Schema$`;
const driveDefs = convert(
  DTS,
  schemaTypes.map((n) => `${namespace}.${n}`),
  (n) => (n.startsWith(prefix) ? n.slice(prefix.length) : undefined),
);
const tokenDefs = spec.token
  ? convert(join(authDir, 'build', 'src', 'auth', 'credentials.d.ts'), ['CredentialRequest'], (n) => n)
  : undefined;

const banner = {
  package: `${pkg.name}@${pkg.version}`,
  generatedBy: `specs/drive/make-spec.mjs${api === 'drive' ? '' : ` ${api}`} (ts-json-schema-generator@${generatorPkg.version}, typescript@${ts.version})`,
};
writeFileSync(
  join(here, 'routes.json'),
  `${JSON.stringify({ ...banner, rootUrl: spec.rootUrl, standardParameters: standard, operations }, null, 2)}\n`,
);
writeFileSync(
  join(here, 'schemas.json'),
  `${JSON.stringify({ ...banner, $schema: 'https://json-schema.org/draft/2020-12/schema', $id: `https://refmcp.invalid/${api}-${spec.version}/schemas`, $defs: driveDefs }, null, 2)}\n`,
);
if (tokenDefs)
  writeFileSync(
    join(here, 'oauth-token.json'),
    `${JSON.stringify({ package: `${authPkg.name}@${authPkg.version}`, generatedBy: banner.generatedBy, $schema: 'https://json-schema.org/draft/2020-12/schema', $id: 'https://refmcp.invalid/google-oauth/token', $defs: tokenDefs }, null, 2)}\n`,
  );
// The repository's formatter owns the layout of committed JSON.
execFileSync(
  'npx',
  [
    'biome',
    'format',
    '--write',
    ...['routes.json', 'schemas.json', ...(tokenDefs ? ['oauth-token.json'] : [])].map((f) => join(here, f)),
  ],
  { stdio: 'ignore' },
);
process.stdout.write(
  `${operations.length} operations, ${Object.keys(driveDefs).length} ${api} schemas, ${Object.keys(tokenDefs ?? {}).length} token schemas\n`,
);
