/**
 * The container image's invariants, read from release/container/Containerfile without building
 * it (the build and run are the release workflow's `images` job, release/images): a numeric
 * non-root USER in force at the ENTRYPOINT; no `latest` or untagged base; the MCP Registry's
 * `io.modelcontextprotocol.server.name` label (registry docs, "package-types": OCI images are
 * matched to their entry by it) from the MCP_NAME build argument; read-only-friendly — HOME and
 * WORKDIR on /tmp (the one writable path under `--read-only`), no VOLUME, no RUN as the
 * unprivileged user — and an exec-form ENTRYPOINT into the server copied from the build context.
 *
 * Parsing is the Dockerfile reference's line rules only (a `\` at the end continues a line; `#`
 * starts a comment line), enough for this one file; the repository holds no Dockerfile parser.
 */

export interface Instruction {
  keyword: string;
  args: string;
  line: number;
}

/** The instructions of a Containerfile, continuation lines joined. */
export function parseContainerfile(text: string): Instruction[] {
  const out: Instruction[] = [];
  let pending: { text: string; line: number } | undefined;
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (!pending && (line === '' || line.startsWith('#'))) return;
    const continued = line.endsWith('\\');
    const body = continued ? line.slice(0, -1) : line;
    pending = pending ? { ...pending, text: `${pending.text} ${body}` } : { text: body, line: i + 1 };
    if (continued) return;
    const [keyword = '', ...rest] = pending.text.split(/\s+/);
    out.push({ keyword: keyword.toUpperCase(), args: rest.join(' ').trim(), line: pending.line });
    pending = undefined;
  });
  return out;
}

/** The default of each ARG (`ARG NAME=default`); undefined for an ARG without one. */
function argDefaults(ins: Instruction[]): Map<string, string | undefined> {
  return new Map(
    ins
      .filter((i) => i.keyword === 'ARG')
      .map((i) => {
        const [name = '', value] = i.args.split('=', 2);
        return [name, value];
      }),
  );
}

/** Problems with `text` as the servers' Containerfile (empty: all invariants hold). */
export function containerfileProblems(text: string): string[] {
  const ins = parseContainerfile(text);
  const out: string[] = [];
  const args = argDefaults(ins);
  const expand = (s: string) =>
    s.replace(/\$\{?(\w+)\}?/g, (_, name: string) => args.get(name) ?? `<${name}>`);

  const from = ins.filter((i) => i.keyword === 'FROM');
  if (from.length !== 1) out.push(`FROM: ${from.length} stages, expected one`);
  for (const f of from) {
    const image = expand(f.args.split(/\s+/)[0] ?? '');
    if (/:latest(@|$)/.test(image) || !/[:@]/.test(image.split('/').pop() ?? ''))
      out.push(`line ${f.line}: base image ${image} is untagged or latest: pin a version`);
  }
  if (/:latest\b/.test(text.replace(/^#.*$/gm, ''))) out.push('an image tagged latest is named');

  const users = ins.filter((i) => i.keyword === 'USER');
  const user = users.at(-1);
  if (!user) out.push('USER: none, so the server runs as root');
  else {
    const [uid, gid] = user.args.split(':');
    if (!/^\d+$/.test(uid ?? '') || Number(uid) === 0 || (gid !== undefined && !/^\d+$/.test(gid)))
      out.push(
        `line ${user.line}: USER ${user.args} must be a numeric non-root uid[:gid] (Kubernetes runAsNonRoot checks it)`,
      );
    const after = ins.slice(ins.indexOf(user) + 1);
    for (const i of after.filter((x) => x.keyword === 'RUN' || x.keyword === 'USER'))
      out.push(`line ${i.line}: ${i.keyword} after the final USER`);
  }

  const labels = ins
    .filter((i) => i.keyword === 'LABEL')
    .map((i) => i.args)
    .join(' ');
  if (!/io\.modelcontextprotocol\.server\.name="?\$\{?MCP_NAME\}?"?/.test(labels))
    out.push('LABEL io.modelcontextprotocol.server.name="$MCP_NAME" missing');
  if (!args.has('MCP_NAME')) out.push('ARG MCP_NAME missing (the label is built from it)');

  const env = ins
    .filter((i) => i.keyword === 'ENV')
    .map((i) => i.args)
    .join(' ');
  if (!/\bHOME=\/tmp\b/.test(env)) out.push('ENV HOME=/tmp missing: under --read-only only /tmp is writable');
  const workdir = ins.filter((i) => i.keyword === 'WORKDIR').at(-1);
  if (workdir?.args !== '/tmp')
    out.push(`WORKDIR ${workdir?.args ?? '(none)'}: /tmp, the one writable path under --read-only`);
  for (const v of ins.filter((i) => i.keyword === 'VOLUME'))
    out.push(`line ${v.line}: VOLUME ${v.args}: the image must run with --read-only and no volume`);
  for (const a of ins.filter((i) => i.keyword === 'ADD'))
    out.push(`line ${a.line}: ADD: use COPY from the build context (no downloads at build time)`);

  const entry = ins.filter((i) => i.keyword === 'ENTRYPOINT').at(-1);
  let argv: unknown;
  try {
    argv = JSON.parse(entry?.args ?? '');
  } catch {
    argv = undefined;
  }
  if (!Array.isArray(argv) || argv[0] !== 'node')
    out.push(
      `ENTRYPOINT ${entry?.args ?? '(none)'}: exec form ["node", "<server>/dist/index.js"] (signals reach node)`,
    );
  else {
    const copy = ins.find((i) => i.keyword === 'COPY' && /^server\/?\s/.test(i.args));
    const dest = copy?.args.split(/\s+/).at(-1)?.replace(/\/$/, '');
    if (!dest || argv[1] !== `${dest}/dist/index.js`)
      out.push(`ENTRYPOINT runs ${argv[1]}, but the context's server/ is copied to ${dest ?? '(nowhere)'}`);
  }
  return out;
}

/** Where the Containerfile copies the server, its entrypoint argv and its ENV, for running the same layout elsewhere. */
export function imageLayout(text: string): {
  serverDir: string;
  argv: string[];
  env: Record<string, string>;
} {
  const ins = parseContainerfile(text);
  const copy = ins.find((i) => i.keyword === 'COPY' && /^server\/?\s/.test(i.args));
  const entry = ins.filter((i) => i.keyword === 'ENTRYPOINT').at(-1);
  const env: Record<string, string> = {};
  for (const i of ins.filter((x) => x.keyword === 'ENV'))
    for (const pair of i.args.split(/\s+/)) {
      const [k, v] = pair.split('=', 2);
      if (k && v !== undefined) env[k] = v;
    }
  return {
    serverDir: copy?.args.split(/\s+/).at(-1)?.replace(/\/$/, '') ?? '',
    argv: JSON.parse(entry?.args ?? '[]') as string[],
    env,
  };
}
