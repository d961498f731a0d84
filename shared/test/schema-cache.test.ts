// The schemas file a launched server reads (server/schema-cache.ts), with an in-memory store in the
// launcher's place: one module instance per test file, so the store is offered before first use.
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it, vi } from 'vitest';
import { offerSchemaStore } from '../src/launch/schema-store.js';
import { z } from '../src/schema.js';
import { cachedJsonSchema } from '../src/server/schema-cache.js';
import { schemaKey } from '../src/server/schema-key.js';

const args = (max: number) => z.strictObject({ per_page: z.int().max(max).describe('Rows per page.') });
const TARGET = 'draft-2020-12';
const earlier = `input ${TARGET} ${schemaKey(args(100))}`;

const saved: string[] = [];
offerSchemaStore({
  load: () => Buffer.from(JSON.stringify({ [earlier]: '{"from":"file"}', 'input x stale': '{}' })),
  save: (data) => saved.push(data.toString()),
});

describe('schema cache', () => {
  it('serves a schema an earlier start converted, converting nothing; converts one a config changed; saves what this start used', async () => {
    const convert = vi.fn(() => '{"from":"zod"}');
    expect(cachedJsonSchema(args(100), 'input', TARGET, convert)).toBe('{"from":"file"}');
    expect(convert).not.toHaveBeenCalled();
    // The same tool with another bound (a config's limit): not the file's entry.
    expect(cachedJsonSchema(args(50), 'input', TARGET, convert)).toBe('{"from":"zod"}');
    expect(cachedJsonSchema(args(100), 'output', TARGET, convert)).toBe('{"from":"zod"}');
    expect(convert).toHaveBeenCalledTimes(2);
    expect(saved).toEqual([]); // after this turn, not during the answer
    await sleep(20);
    expect(saved).toHaveLength(1);
    expect(JSON.parse(saved[0] as string)).toEqual({
      [earlier]: '{"from":"file"}',
      [`input ${TARGET} ${schemaKey(args(50))}`]: '{"from":"zod"}',
      [`output ${TARGET} ${schemaKey(args(100))}`]: '{"from":"zod"}',
    });
    // A start that converted nothing writes nothing.
    cachedJsonSchema(args(50), 'input', TARGET, convert);
    await sleep(20);
    expect(saved).toHaveLength(1);
  });

  it('converts what it cannot key, every time', () => {
    const convert = vi.fn(() => '{}');
    const unkeyable = z.strictObject({ n: z.int().catch(1) });
    cachedJsonSchema(unkeyable, 'input', TARGET, convert);
    cachedJsonSchema(unkeyable, 'input', TARGET, convert);
    expect(convert).toHaveBeenCalledTimes(2);
  });
});
