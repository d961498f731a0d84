/**
 * The create_pr_description prompt: asks for a pull request description from a branch pair and
 * the commit messages. Commit messages are third-party text: sanitised and labelled as data.
 */
import type { McpServer } from '@modelcontextprotocol/server';
import { safeString, z } from '@refmcp/shared/schema';
import { labelUntrusted, neutralize, UNTRUSTED_NOTICE } from '@refmcp/shared/untrusted';

export function registerPrompts(server: McpServer): void {
  server.registerPrompt(
    'create_pr_description',
    {
      title: 'Create pull request description',
      description:
        'Draft a pull request title and description for merging head_branch into base_branch, from the commit messages.',
      argsSchema: z.object({
        repo: safeString({ min: 1, max: 200 }).describe('Repository as owner/name'),
        base_branch: safeString({ min: 1, max: 255 }).describe('Branch the changes merge into'),
        head_branch: safeString({ min: 1, max: 255 }).describe('Branch holding the changes'),
        commit_messages: safeString({ max: 64 * 1024 }).describe(
          'The commit messages, one per line or separated by blank lines',
        ),
      }),
    },
    ({ repo, base_branch, head_branch, commit_messages }) => ({
      description: `Pull request description for ${repo}: ${head_branch} → ${base_branch}`,
      messages: [
        {
          role: 'user' as const,
          content: {
            type: 'text' as const,
            text: [
              `Write a pull request title and description for merging ${neutralize(head_branch)} into ${neutralize(base_branch)} in ${neutralize(repo)}.`,
              'Use this structure: a one-line title; "Summary" (why, in two or three sentences); "Changes" (bullets); "Testing" (how it was or should be verified); "Risks" (what could break, or "none known").',
              'Describe only what the commits show; do not invent changes.',
              UNTRUSTED_NOTICE,
              labelUntrusted(`commit messages of ${repo} ${head_branch}`, neutralize(commit_messages)),
            ].join('\n\n'),
          },
        },
      ],
    }),
  );
}
