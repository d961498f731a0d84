// Human-readable renderings for the CLI: check reports, tool lists, call results.
import type { CallToolResult, Tool } from '@modelcontextprotocol/client';
import type { CheckReport } from './checks/context.js';
import { type JsonSchema, topLevelProperties } from './synthesize.js';

/** A check report as text: a header, then "✓/✗/– ID name" per check with details indented. */
export function formatReport(report: CheckReport): string {
  const failed = report.checks.filter((c) => !c.ok).length;
  const who = report.server ? `${report.server.name} ${report.server.version}` : 'server';
  const lines = [
    `${who}: ${report.checks.length} check(s), ${failed === 0 ? 'all passed' : `${failed} failed`} (${(report.durationMs / 1000).toFixed(1)} s)`,
  ];
  for (const check of report.checks) {
    const mark = check.skipped ? '–' : check.ok ? '✓' : '✗';
    lines.push(`${mark} ${check.id} ${check.name}${check.skipped ? ' (skipped)' : ''}`);
    for (const detail of check.details) lines.push(`    ${detail.split('\n').join('\n      ')}`);
  }
  return lines.join('\n');
}

/** The annotation flags of a tool as words; a missing hint shows as "<hint>?". */
function annotationWords(tool: Tool): string {
  const a = tool.annotations ?? {};
  const words: string[] = [];
  const flag = (value: boolean | undefined, yes: string, missing: string) => {
    if (value === undefined) words.push(missing);
    else if (value) words.push(yes);
  };
  if (a.readOnlyHint === false) words.push('write');
  flag(a.readOnlyHint, 'read-only', 'readOnly?');
  flag(a.destructiveHint, 'destructive', 'destructive?');
  flag(a.idempotentHint, 'idempotent', 'idempotent?');
  flag(a.openWorldHint, 'open-world', 'openWorld?');
  return words.join(', ');
}

/** One block per tool: name — title [flags], first description line, arguments (`*` = required). */
export function formatTools(tools: Tool[]): string {
  if (tools.length === 0) return '(no tools)';
  return tools
    .map((tool) => {
      const title = tool.title ?? tool.annotations?.title;
      const head = `${tool.name}${title ? ` — ${title}` : ''}  [${annotationWords(tool)}]`;
      const description = (tool.description ?? '').split('\n')[0]?.trim();
      const args = topLevelProperties(tool.inputSchema as JsonSchema)
        .map((p) => `${p.name}${p.required ? '*' : '?'}: ${p.types.join('|') || 'any'}`)
        .join(', ');
      return [head, description ? `  ${description}` : '', `  args: ${args || '(none)'}`]
        .filter(Boolean)
        .join('\n');
    })
    .join('\n\n');
}

/** Text content as is; other content items as a one-line summary; "error:" first when isError. */
export function formatCallResult(result: CallToolResult): string {
  const parts = (result.content ?? []).map((item) => {
    if (item.type === 'text') return item.text;
    if (item.type === 'image' || item.type === 'audio')
      return `[${item.type} ${item.mimeType}, ${item.data.length} base64 chars]`;
    if (item.type === 'resource_link') return `[resource link ${item.uri}]`;
    if (item.type === 'resource') return `[resource ${item.resource.uri}]`;
    return `[${(item as { type: string }).type}]`;
  });
  if (parts.length === 0 && result.structuredContent !== undefined)
    parts.push(JSON.stringify(result.structuredContent, null, 2));
  return `${result.isError ? 'error: ' : ''}${parts.join('\n')}`;
}

/** `1 repository`, `2 repositories`: `count` and `singular`, made plural (`pluralForm`, default +s) unless 1. */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}
