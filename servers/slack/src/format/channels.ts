/** Conversations as the model reads them: id, name, kind, members, topic and purpose (untrusted text). */
import { count, counted } from '@refmcp/shared';
import { z } from '@refmcp/shared/schema';
import type { UntrustedText } from '@refmcp/shared/untrusted';

export const channelShape = z.object({
  id: z.string(),
  name: z.string().optional().describe("Channel name; DMs: @ and the other person's name"),
  user: z.string().optional().describe("DMs: the other person's user ID"),
  kind: z.enum(['public', 'private', 'im', 'mpim']),
  members: count().optional(),
  isMember: z.boolean().optional().describe('The app is in it (needed to read or post)'),
  archived: z.boolean().optional(),
  topic: z.string().optional(),
  purpose: z.string().optional(),
});

export type Channel = z.infer<typeof channelShape>;

/**
 * A conversations.list / .info channel object, read leniently. A DM (`is_im`) is named `@` and the
 * other person's name from `userName` (the users cache), else `@` and their user ID.
 */
export function toChannel(
  raw: Record<string, unknown>,
  untrusted: UntrustedText,
  userName: (id: string) => string | undefined = () => undefined,
): Channel {
  const value = (field: unknown) =>
    typeof (field as { value?: unknown } | undefined)?.value === 'string'
      ? ((field as { value: string }).value as string)
      : '';
  const kind = raw.is_im ? 'im' : raw.is_mpim ? 'mpim' : raw.is_private ? 'private' : 'public';
  const topic = untrusted.line(value(raw.topic), 300);
  const purpose = untrusted.line(value(raw.purpose), 300);
  return {
    id: String(raw.id ?? ''),
    ...(typeof raw.name === 'string' ? { name: untrusted.line(raw.name, 100) } : {}),
    ...(typeof raw.user === 'string' && kind === 'im'
      ? { name: `@${untrusted.line(userName(raw.user) ?? raw.user, 100)}`, user: raw.user }
      : {}),
    kind,
    ...(typeof raw.num_members === 'number' ? { members: raw.num_members } : {}),
    ...(typeof raw.is_member === 'boolean' ? { isMember: raw.is_member } : {}),
    ...(raw.is_archived === true ? { archived: true } : {}),
    ...(topic ? { topic } : {}),
    ...(purpose ? { purpose } : {}),
  };
}

/** "- #eng (C111) public, 4 members, app in it — topic: …; purpose: …" */
export function renderChannel(c: Channel): string {
  const facts = [
    c.kind,
    c.members !== undefined ? counted(c.members, 'members') : '',
    c.isMember === false ? 'app not in it' : '',
    c.archived ? 'archived' : '',
  ].filter(Boolean);
  const about = [c.topic ? `topic: ${c.topic}` : '', c.purpose ? `purpose: ${c.purpose}` : ''].filter(
    Boolean,
  );
  const name = c.name ? (c.name.startsWith('@') ? c.name : `#${c.name}`) : '';
  return `- ${name ? `${name} ` : ''}(${c.id}) ${facts.join(', ')}${about.length ? ` — ${about.join('; ')}` : ''}`;
}
