/**
 * How to name this server's command in a message: the bin a package install puts on the PATH
 * (`mcp-server-drive auth`), and, when this process was started some other way (from a checkout,
 * `node /abs/servers/drive/dist/index.js`), also the form that works here, since the bin is not on
 * the PATH until the package is installed.
 */
import path from 'node:path';

/** `node <script>` for this process, the script path single-quoted when it holds shell characters. */
function thisScript(): string | undefined {
  const script = process.argv[1];
  if (!script) return undefined;
  return `node ${/^[\w./@%+,:=-]+$/.test(script) ? script : `'${script.replace(/'/g, `'\\''`)}'`}`;
}

/**
 * "`BIN ARGS`", or "`BIN ARGS` (from this checkout: `node /abs/…/index.js ARGS`)" when the
 * process was not started as BIN. `args` is appended to both forms (e.g. "auth", "--help").
 */
export function commandHint(bin: string, args = ''): string {
  const tail = args ? ` ${args}` : '';
  const script = thisScript();
  if (!script || path.basename(process.argv[1] ?? '') === bin) return `\`${bin}${tail}\``;
  return `\`${bin}${tail}\` (from this checkout: \`${script}${tail}\`)`;
}
