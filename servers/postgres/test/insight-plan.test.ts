/**
 * Plan reading without a database: candidate columns from VERBOSE conditions, candidates from a
 * plan (selectivity, existing indexes, joins, ORDER BY under LIMIT), findings from numbers.
 */
import { describe, expect, it } from 'vitest';
import { comparedColumns, planCandidates, type RelationInfo } from '../src/insight/candidates.js';
import { type PlanRoot, planFindings, planRoot } from '../src/insight/plan.js';

const orders = (indexes: RelationInfo['indexes'] = []): RelationInfo => ({
  schema: 'public',
  name: 'orders',
  qualified: 'public.orders',
  rows: 100_000,
  bytes: 8_000_000,
  columns: new Map(['id', 'customer_id', 'status', 'created_at', 'note'].map((c) => [c, c])),
  indexes,
});

const seqScan = (filter: string, planRows: number, alias = 'o') => ({
  'Node Type': 'Seq Scan',
  'Relation Name': 'orders',
  Schema: 'public',
  Alias: alias,
  'Startup Cost': 0,
  'Total Cost': 2000,
  'Plan Rows': planRows,
  Filter: filter,
});

describe('comparedColumns', () => {
  it('reads equality and range comparisons of the alias, skipping literals, functions and <>', () => {
    expect(
      comparedColumns(
        "((o.status = 'a.b'::text) AND (o.created_at > now()) AND (lower(o.note) = 'x'::text) AND (o.id <> 3) AND (c.id = o.customer_id))",
        'o',
      ),
    ).toEqual([
      { column: 'status', kind: 'eq' },
      { column: 'created_at', kind: 'range' },
      { column: 'customer_id', kind: 'eq' },
    ]);
    expect(comparedColumns('("O"."Mixed" = 1)', 'O')).toEqual([{ column: 'Mixed', kind: 'eq' }]);
  });
});

describe('planCandidates', () => {
  const rels = (r: RelationInfo) => new Map([['public.orders', r]]);

  it('puts equality columns before one range column', () => {
    const root = { Plan: seqScan("((o.created_at > now()) AND (o.status = 'x'::text))", 10) } as PlanRoot;
    expect(planCandidates(root, rels(orders())).map((c) => c.ddl)).toEqual([
      'CREATE INDEX ON public.orders (status, created_at)',
    ]);
  });

  it('passes over a filter keeping most rows, and one an index already leads with', () => {
    const notes: string[] = [];
    const broad = { Plan: seqScan("(o.status = 'x'::text)", 60_000) } as PlanRoot;
    expect(planCandidates(broad, rels(orders()), notes)).toEqual([]);
    expect(notes[0]).toMatch(/keeps ~60% of the rows/);
    const indexed = { Plan: seqScan("(o.status = 'x'::text)", 10) } as PlanRoot;
    const existing = orders([{ name: 'orders_status_idx', columns: ['status', 'id'], partial: false }]);
    expect(planCandidates(indexed, rels(existing), notes)).toEqual([]);
    expect(notes[1]).toMatch(/index orders_status_idx already leads with these columns/);
  });

  it('proposes the sort key under a LIMIT', () => {
    const root = {
      Plan: {
        'Node Type': 'Limit',
        'Total Cost': 3000,
        Plans: [
          {
            'Node Type': 'Sort',
            'Total Cost': 3000,
            'Sort Key': ['o.created_at DESC'],
            Plans: [{ ...seqScan("(o.status = 'x'::text)", 50_000) }],
          },
        ],
      },
    } as PlanRoot;
    expect(planCandidates(root, rels(orders())).map((c) => c.ddl)).toEqual([
      'CREATE INDEX ON public.orders (status, created_at)',
    ]);
  });

  it('leaves small tables alone', () => {
    const root = { Plan: seqScan("(o.status = 'x'::text)", 1) } as PlanRoot;
    expect(planCandidates(root, rels({ ...orders(), rows: 500 }))).toEqual([]);
  });
});

describe('planFindings and planRoot', () => {
  it('reads a plan given as text (a 64-bit query identifier keeps it unparsed)', () => {
    const text =
      '[{"Plan": {"Node Type": "Result", "Total Cost": 0.01}, "Query Identifier": -5707160366835982989}]';
    expect(planRoot(text)?.Plan['Node Type']).toBe('Result');
    expect(planRoot([{}])).toBeUndefined();
  });

  it('reports a misestimate and a hash spill with their numbers', () => {
    const root: PlanRoot = {
      'Execution Time': 50,
      Plan: {
        'Node Type': 'Hash Join',
        'Total Cost': 100,
        'Plan Rows': 5,
        'Actual Rows': 5000,
        'Actual Loops': 1,
        'Actual Total Time': 49,
        Plans: [
          {
            'Node Type': 'Hash',
            'Total Cost': 40,
            'Plan Rows': 1000,
            'Actual Rows': 1000,
            'Actual Loops': 1,
            'Actual Total Time': 20,
            'Hash Batches': 4,
            'Original Hash Batches': 1,
            'Peak Memory Usage': 64,
          },
        ],
      },
    };
    const texts = planFindings(root, new Map()).map((f) => `${f.kind}: ${f.text}`);
    expect(texts).toContain('costly node: Hash Join: 29 ms of 50 ms (58%) spent in this node itself');
    expect(
      texts.some((t) =>
        t.startsWith('row estimate: Hash Join: estimated 5 rows, got 5000 per loop (1000× under'),
      ),
    ).toBe(true);
    expect(
      texts.some((t) => t.startsWith('disk spill: Hash: 4 batches (planned 1), peak memory 64 kB')),
    ).toBe(true);
  });
});
