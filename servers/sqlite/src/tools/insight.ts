/**
 * append_insight (as in the reference server): adds a finding to the memo served as
 * `memo://insights`; subscribers get notifications/resources/updated. It changes server memory,
 * never the database, so it is listed in read-only mode too (but not under --read-only).
 */
import { safeString, z } from '@refmcp/shared/schema';
import { defineTool, LOCAL_HINTS, type ToolDefinition, ToolError, textResult } from '@refmcp/shared/server';
import type { Config } from '../config.js';
import { MAX_INSIGHT_CHARS } from '../memo.js';

export function insightTools(config: Config): ToolDefinition[] {
  const appendInsight = defineTool({
    name: 'append_insight',
    title: 'Append Insight',
    description:
      'Add a business insight found in the data, as one sentence, to the memo resource memo://insights (kept while ' +
      'the server runs, not in the database).',
    inputSchema: z.strictObject({
      insight: safeString({ max: MAX_INSIGHT_CHARS, min: 1 }).describe(
        'e.g. "Repeat customers make 62% of Q3 revenue."',
      ),
    }),
    annotations: LOCAL_HINTS.additive,
    handler: async (args) => {
      if (args.insight.trim() === '') throw new ToolError('insight: must not be blank');
      let count: number;
      try {
        count = config.memo.append(args.insight);
      } catch (error) {
        throw new ToolError(`insight: ${(error as Error).message}`);
      }
      return textResult(
        `Insight added to memo://insights (${count} insight${count === 1 ? '' : 's'} so far).`,
      );
    },
  });
  return [appendInsight];
}
