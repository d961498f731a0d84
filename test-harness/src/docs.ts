/**
 * README tool tables generated from a server's own tool definitions (as served in `tools/list`),
 * so the docs cannot drift from the code. A README holds the table between
 * `<!-- tools:start -->` and `<!-- tools:end -->`.
 */
import type { Tool } from '@modelcontextprotocol/client';

/** Words whose trailing period never ends a sentence ("e.g. a PDF", "files, folders, etc. in"). */
const ABBREVIATION = /(?:^|[\s(])(?:e\.g|i\.e|etc|vs|cf|approx)\.$/i;

/**
 * First sentence of a description, for the table: up to the first period followed by whitespace
 * that is outside parentheses and not an abbreviation's (e.g., i.e., etc.), or the first newline.
 */
function summary(description = ''): string {
  let depth = 0;
  let end = description.length;
  for (let i = 0; i < description.length; i++) {
    const c = description[i];
    if (c === '\n') {
      end = i;
      break;
    }
    if (c === '(') depth++;
    else if (c === ')') depth = Math.max(0, depth - 1);
    else if (c === '.' && depth === 0 && /\s/.test(description[i + 1] ?? '')) {
      if (!ABBREVIATION.test(description.slice(0, i + 1))) {
        end = i + 1;
        break;
      }
    }
  }
  return description.slice(0, end).replace(/\|/g, '\\|').trim();
}

function argList(tool: Tool): string {
  const props = Object.keys((tool.inputSchema.properties ?? {}) as Record<string, unknown>);
  const required = new Set(tool.inputSchema.required ?? []);
  return props.map((p) => (required.has(p) ? `\`${p}\`` : `\`${p}?\``)).join(', ');
}

function mode(tool: Tool): string {
  const a = tool.annotations ?? {};
  if (a.readOnlyHint) return 'read';
  return a.destructiveHint ? 'write (destructive)' : 'write';
}

/** A markdown table: tool, arguments (`?` = optional), mode, what it does. */
export function renderToolsTable(tools: Tool[]): string {
  const rows = tools.map((t) => `| \`${t.name}\` | ${argList(t)} | ${mode(t)} | ${summary(t.description)} |`);
  return ['| Tool | Arguments | Mode | What it does |', '|---|---|---|---|', ...rows].join('\n');
}

/** `readme` with the text between the tools markers replaced by `table`; throws if the markers are missing. */
export function withToolsTable(readme: string, table: string): string {
  return withGeneratedSection(readme, 'tools', table);
}

/**
 * A markdown table of a server's toolsets from its declaration (`defineToolsets`): name, whether
 * it is on by default, what it holds.
 */
export function renderToolsetsTable(
  toolsets: readonly { name: string; description: string; default: boolean }[],
): string {
  const rows = toolsets.map((s) => `| \`${s.name}\` | ${s.default ? 'on' : 'off'} | ${s.description} |`);
  return ['| Toolset | Default | What it holds |', '|---|---|---|', ...rows].join('\n');
}

/**
 * `readme` with the text between `<!-- NAME:start -->` and `<!-- NAME:end -->` replaced by `body`;
 * throws if the markers are missing.
 */
export function withGeneratedSection(readme: string, name: string, body: string): string {
  const startMarker = `<!-- ${name}:start -->`;
  const endMarker = `<!-- ${name}:end -->`;
  const start = readme.indexOf(startMarker);
  const end = readme.indexOf(endMarker);
  if (start < 0 || end < start) throw new Error(`README has no ${startMarker} … ${endMarker} section`);
  return `${readme.slice(0, start + startMarker.length)}\n${body}\n${readme.slice(end)}`;
}

/** One README section of a server with toolsets: the toolset, whether it is off by default, its tools. */
export interface ToolsetSection {
  name: string;
  offByDefault: boolean;
  tools: Tool[];
}

/** A bold heading per toolset (`**issues**`, `**actions** (off by default)`), each followed by its table. */
export function renderToolsetTables(sections: ToolsetSection[]): string {
  return sections
    .map((s) => `**${s.name}**${s.offByDefault ? ' (off by default)' : ''}\n\n${renderToolsTable(s.tools)}`)
    .join('\n\n');
}
