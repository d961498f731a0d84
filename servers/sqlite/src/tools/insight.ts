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
      'Add one business insight discovered from the data to the memo resource memo://insights (a running list the ' +
      'user can attach to the conversation). Write it as a complete sentence. The memo lives as long as the server; ' +
      'it is not stored in the database.',
    inputSchema: z.strictObject({
      insight: safeString({ max: MAX_INSIGHT_CHARS, min: 1 }).describe(
        'The insight, e.g. "Repeat customers account for 62% of revenue in Q3."',
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
