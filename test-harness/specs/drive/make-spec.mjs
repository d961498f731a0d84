// Builds the Drive spec fixture from @googleapis/drive itself (run from test-harness/:
// `node specs/drive/make-spec.mjs`). Two sources, both inside the installed package:
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

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(join(here, '..', '..', 'package.json'));
const pkgDir = dirname(require.resolve('@googleapis/drive/package.json'));
const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
const authDir = dirname(require.resolve('google-auth-library/package.json'));
const authPkg = JSON.parse(readFileSync(join(authDir, 'package.json'), 'utf8'));
const generatorPkg = JSON.parse(
  readFileSync(require.resolve('ts-json-schema-generator/package.json'), 'utf8'),
);
const JS = join(pkgDir, 'build', 'v3.js');
const DTS = join(pkgDir, 'build', 'v3.d.ts');

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
    id: `drive.${id}`,
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
  for (const type of types)
    for (const [name, schema] of Object.entries(generator.createSchema(type).definitions ?? {})) {
      const short = rename(decodeURIComponent(name));
      if (!short) throw new Error(`${type} refers to ${name}, outside the converted types`);
      defs[short] = schema;
    }
  return JSON.parse(
    JSON.stringify(defs).replace(/"#\/definitions\/([^"]+)"/g, (_, n) =>
      JSON.stringify(`#/$defs/${rename(decodeURIComponent(n))}`),
    ),
  );
}
const schemaTypes = [...interfaces.keys()].filter((n) => n.startsWith('Schema$')).sort();
const driveDefs = convert(
  DTS,
  schemaTypes.map((n) => `drive_v3.${n}`),
  (n) => (n.startsWith('drive_v3.Schema$') ? n.slice('drive_v3.Schema$'.length) : undefined),
);
const tokenDefs = convert(
  join(authDir, 'build', 'src', 'auth', 'credentials.d.ts'),
  ['CredentialRequest'],
  (n) => n,
);

const banner = {
  package: `${pkg.name}@${pkg.version}`,
  generatedBy: `specs/drive/make-spec.mjs (ts-json-schema-generator@${generatorPkg.version}, typescript@${ts.version})`,
};
writeFileSync(
  join(here, 'routes.json'),
  `${JSON.stringify({ ...banner, rootUrl: 'https://www.googleapis.com/', standardParameters: standard, operations }, null, 2)}\n`,
);
writeFileSync(
  join(here, 'schemas.json'),
  `${JSON.stringify({ ...banner, $schema: 'https://json-schema.org/draft/2020-12/schema', $id: 'https://refmcp.invalid/drive-v3/schemas', $defs: driveDefs }, null, 2)}\n`,
);
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
    ...['routes.json', 'schemas.json', 'oauth-token.json'].map((f) => join(here, f)),
  ],
  { stdio: 'ignore' },
);
process.stdout.write(
  `${operations.length} operations, ${Object.keys(driveDefs).length} Drive schemas, ${Object.keys(tokenDefs).length} token schemas\n`,
);
