/**
 * The result model (rows of ours vs official with ratio and goal) and its two renderings: a
 * readable table for people and JSON for machines.
 */
import type { Side } from './servers.js';

export type Unit = 'calls/s' | 'ms' | 'bytes';

/** One server's figure for one metric: a value, or why there is none. */
export interface Cell {
  value?: number;
  /** The server answered with an error, crashed, or was not available. */
  error?: string;
}

export interface Goal {
  /** ours ÷ official must be at least / at most this. */
  ratioAtLeast?: number;
  ratioAtMost?: number;
  /** Further conditions on our figure alone (e.g. refusal in < 100 ms); false fails the goal. */
  alsoRequired?: { text: string; met: boolean | undefined };
  text: string;
}

export interface Row {
  /** Metric number from DESIGN.md §4 brief (1–6) and a short name. */
  id: string;
  name: string;
  unit: Unit;
  better: 'higher' | 'lower';
  ours: Cell;
  official: Cell;
  /** ours ÷ official, when both have a value. */
  ratio?: number;
  goal?: Goal;
  met?: boolean;
}

/** A free-text answer of each server, e.g. the first 100 characters of a whole-file read. */
export interface Answer {
  name: string;
  call: string;
  ours: string;
  official: string;
}

export interface Report {
  machine: {
    cores: number;
    cpu: string;
    node: string;
    platform: string;
    memoryGiB: number;
    /** 1-minute load average at the start and at the end of the run: other work skews the figures. */
    load: { start: number; end?: number };
  };
  servers: Record<Side, { label: string; reported?: string; missing?: string }>;
  mode: 'full' | 'quick';
  rows: Row[];
  answers: Answer[];
  notes: string[];
  /** Failures of the bench itself (not of a server): these make the exit status 1. */
  crashes: string[];
}

/** Builds a row, computing the ratio and whether the goal is met. */
export function row(r: Omit<Row, 'ratio' | 'met'>): Row {
  const { ours, official, goal } = r;
  const ratio =
    ours.value !== undefined && official.value !== undefined && official.value > 0
      ? ours.value / official.value
      : undefined;
  let met: boolean | undefined;
  if (goal) {
    const checks: (boolean | undefined)[] = [];
    if (goal.ratioAtLeast !== undefined)
      checks.push(ratio === undefined ? undefined : ratio >= goal.ratioAtLeast);
    if (goal.ratioAtMost !== undefined)
      checks.push(ratio === undefined ? undefined : ratio <= goal.ratioAtMost);
    if (goal.alsoRequired) checks.push(goal.alsoRequired.met);
    met = checks.includes(false) ? false : checks.includes(undefined) ? undefined : true;
    // Our server failing the workload fails the goal even when the official failed too.
    if (ours.error && met === undefined && !ours.error.startsWith('not built')) met = false;
  }
  return { ...r, ratio, met };
}

export function formatValue(unit: Unit, value: number): string {
  if (!Number.isFinite(value)) return '—';
  switch (unit) {
    case 'calls/s':
      return `${Math.round(value).toLocaleString('en-US')}/s`;
    case 'ms':
      if (value >= 1000) return `${(value / 1000).toFixed(2)} s`;
      return `${value.toFixed(value < 10 ? 2 : 1)} ms`;
    case 'bytes':
      if (value >= 1024 * 1024) return `${(value / 1024 / 1024).toFixed(1)} MiB`;
      if (value >= 1024) return `${(value / 1024).toFixed(1)} KiB`;
      return `${value} B`;
  }
}

function formatCell(unit: Unit, cell: Cell): string {
  if (cell.error !== undefined) return cell.error.startsWith('not built') ? 'not built' : 'ERROR';
  if (cell.value === undefined) return '—';
  return formatValue(unit, cell.value);
}

/** "3.2× more", "5.0× faster", … for a ratio ours ÷ official. */
function reading(r: Row): string {
  if (r.ratio === undefined) return '';
  const words: Record<Unit, [string, string]> = {
    'calls/s': ['more', 'fewer'],
    ms: ['slower', 'faster'],
    bytes: ['more', 'less'],
  };
  const [up, down] = words[r.unit];
  if (r.ratio >= 1) return `${r.ratio.toFixed(r.ratio >= 10 ? 0 : 2)}× ${up}`;
  const inv = 1 / r.ratio;
  return `${inv.toFixed(inv >= 10 ? 0 : 2)}× ${down}`;
}

function formatRatio(ratio: number | undefined): string {
  if (ratio === undefined) return '—';
  return ratio >= 0.01 ? `${ratio.toFixed(2)}×` : `${ratio.toPrecision(2)}×`;
}

function table(header: string[], body: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((line) => (line[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((w) => '─'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}

export function renderText(report: Report): string {
  const out: string[] = [];
  const m = report.machine;
  out.push(
    `refmcp bench (${report.mode}) — ${m.cores} cores (${m.cpu}), ${m.memoryGiB} GiB, node ${m.node}, ${m.platform}`,
  );
  const load = `${m.load.start.toFixed(2)} at start, ${m.load.end?.toFixed(2) ?? '?'} at end`;
  const busy =
    Math.max(m.load.start, m.load.end ?? 0) > m.cores * 0.75
      ? ' — the machine was busy: figures are noisy'
      : '';
  out.push(`  load average (1 min): ${load}${busy}`);
  for (const side of ['ours', 'official'] as const) {
    const s = report.servers[side];
    const state = s.missing ? ` — ${s.missing}` : s.reported ? ` (reports "${s.reported}")` : '';
    out.push(`  ${side.padEnd(8)} ${s.label}${state}`);
  }
  out.push('');
  const body = report.rows.map((r) => [
    `${r.id} ${r.name}`,
    formatCell(r.unit, r.ours),
    formatCell(r.unit, r.official),
    formatRatio(r.ratio),
    reading(r),
    r.goal?.text ?? '',
    r.met === undefined ? (r.goal ? 'n/a' : '') : r.met ? 'MET' : 'NOT MET',
  ]);
  out.push(table(['metric', 'ours', 'official', 'ours/off', '', 'goal', 'met?'], body));
  out.push(
    'ratio = ours ÷ official; every figure is a median over alternated repetitions unless the name says otherwise',
  );

  // One line per distinct failure: a session that fails on its first call fails every row it feeds.
  const errors = new Map<string, string[]>();
  for (const r of report.rows) {
    for (const side of ['ours', 'official'] as const) {
      const error = r[side].error;
      if (!error || error.startsWith('not built')) continue;
      const key = `${side}: ${error}`;
      errors.set(key, [...(errors.get(key) ?? []), `${r.id} ${r.name}`]);
    }
  }
  if (errors.size) {
    out.push('', 'Errors (answers of a server, not failures of the bench):');
    for (const [error, rows] of errors) out.push(`  ${rows.join(' | ')}`, `    ${error}`);
  }
  if (report.answers.length) {
    out.push('', 'Answers (first 100 characters):');
    for (const a of report.answers) {
      out.push(`  ${a.name}: ${a.call}`);
      out.push(`    ours:     ${a.ours}`);
      out.push(`    official: ${a.official}`);
    }
  }
  if (report.notes.length) out.push('', 'Notes:', ...report.notes.map((n) => `  - ${n}`));
  if (report.crashes.length) out.push('', 'BENCH FAILURES:', ...report.crashes.map((c) => `  ${c}`));
  return out.join('\n');
}

export function renderJson(report: Report): string {
  return JSON.stringify(report, null, 2);
}
