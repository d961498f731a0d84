/**
 * Users: slack_get_users and slack_get_user_profile (the reference's names and arguments). The
 * list fills the name cache that message rendering reads; profiles keep what a person would look
 * up (title, email, phone, status), all as untrusted text.
 */
import { compact, defineTool, makeCursor, OPEN_WORLD_HINTS, queryKey, readCursor } from '@refmcp/shared';
import { z } from '@refmcp/shared/schema';
import { neutralizedField, respond, UntrustedText } from '@refmcp/shared/untrusted';
import type { Config } from '../config.js';
import type { RawUser } from '../directory.js';
import * as arg from '../names.js';
import type { SlackTool } from '../toolsets.js';
import { pageOut } from './message-page.js';

const userShape = z.object({
  id: z.string(),
  name: z.string().describe('Handle'),
  realName: z.string().optional(),
  displayName: z.string().optional(),
  title: z.string().optional(),
  bot: z.boolean().optional(),
  admin: z.boolean().optional(),
  deleted: z.boolean().optional(),
  tz: z.string().optional(),
});

type User = z.infer<typeof userShape>;

interface RawMember extends RawUser {
  is_bot?: boolean;
  is_admin?: boolean;
  tz?: string;
  profile?: RawUser['profile'] & { title?: string };
}

function toUser(u: RawMember, t: UntrustedText): User {
  const line = (s: string | undefined) => (s ? t.line(s, 200) : undefined);
  return compact({
    id: String(u.id ?? ''),
    name: t.line(u.name ?? '', 200),
    realName: line(u.real_name || u.profile?.real_name),
    displayName: line(u.profile?.display_name),
    title: line(u.profile?.title),
    bot: u.is_bot || undefined,
    admin: u.is_admin || undefined,
    deleted: u.deleted || undefined,
    tz: line(u.tz),
  });
}

function renderUser(u: User): string {
  const facts = [
    u.bot ? 'bot' : '',
    u.admin ? 'admin' : '',
    u.deleted ? 'deactivated' : '',
    u.tz ?? '',
  ].filter(Boolean);
  const names = [u.realName, u.displayName && u.displayName !== u.name ? `"${u.displayName}"` : '']
    .filter(Boolean)
    .join(' ');
  return `- ${u.name} (${u.id})${names ? ` ${names}` : ''}${u.title ? ` — ${u.title}` : ''}${facts.length ? ` [${facts.join(', ')}]` : ''}`;
}

const profileShape = z.object({
  user: z.string(),
  realName: z.string().optional(),
  displayName: z.string().optional(),
  title: z.string().optional(),
  email: z.string().optional(),
  phone: z.string().optional(),
  status: z.string().optional(),
  pronouns: z.string().optional(),
});

export function userTools(config: Config): SlackTool[] {
  return [
    defineTool({
      name: 'slack_get_users',
      title: 'List users',
      toolset: 'users',
      description: 'List workspace users.',
      inputSchema: z.strictObject({
        cursor: arg.cursor(),
        limit: arg.limit(100, 200),
      }),
      outputSchema: z.object({
        users: z.array(userShape),
        ...pageOut,
        ...neutralizedField,
      }),
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async ({ cursor, limit = 100 }, { signal }) => {
        const key = queryKey('users', { limit });
        const pos = readCursor<{ t?: string }>(cursor, key, 'the same limit');
        const answer = await config.slack.call('users.list', { limit, cursor: pos?.t }, { signal });
        const members = (answer.members as RawMember[] | undefined) ?? [];
        for (const m of members) config.directory.rememberUser(m);
        const untrusted = new UntrustedText();
        const users = members.map((m) => toUser(m, untrusted));
        const next = answer.response_metadata?.next_cursor;
        const nextCursor = next ? makeCursor(key, { t: next }) : undefined;
        return respond(
          compact({ users, hasMore: nextCursor !== undefined, nextCursor }),
          [
            ...users.map(renderUser),
            nextCursor
              ? `${users.length} users; more: call again with cursor.`
              : `${users.length} users; no more.`,
          ],
          untrusted,
        );
      },
    }),
    defineTool({
      name: 'slack_find_users',
      title: 'Find users',
      toolset: 'users',
      description: 'Find people by name, display name or email.',
      inputSchema: z.strictObject({
        query: arg.text('Name, @handle or email', 300),
        limit: arg.limit(10, 50),
      }),
      outputSchema: z.object({
        users: z.array(userShape.extend({ email: z.string().optional() })),
        ...neutralizedField,
      }),
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async ({ query, limit = 10 }, { signal }) => {
        const found = await config.people.find(query, limit, signal);
        const t = new UntrustedText();
        const line = (v: string | undefined) => (v ? t.line(v, 200) : undefined);
        const users = found.map((m) =>
          compact({
            id: m.id,
            name: t.line(m.handle, 200),
            realName: line(m.realName),
            displayName: line(m.displayName),
            email: line(m.email),
            bot: m.bot || undefined,
            deleted: m.deleted || undefined,
          }),
        );
        return respond(
          { users },
          [
            ...users.map((u) => `${renderUser(u)}${u.email ? ` <${u.email}>` : ''}`),
            users.length ? `${users.length} found.` : `No one matches "${t.line(query, 300)}".`,
          ],
          t,
        );
      },
    }),
    defineTool({
      name: 'slack_get_user_profile',
      title: 'Get user profile',
      toolset: 'users',
      description: "A user's profile.",
      inputSchema: z.strictObject({ user_id: arg.userId() }),
      outputSchema: z.object({ profile: profileShape, ...neutralizedField }),
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async ({ user_id: ref }, { signal }) => {
        const person = await config.people.resolve(ref, signal);
        const user_id = person.id;
        const answer = await config.slack.call('users.profile.get', { user: user_id }, { signal });
        const p = (answer.profile ?? {}) as Record<string, unknown>;
        const t = new UntrustedText();
        const line = (v: unknown) => (typeof v === 'string' && v ? t.line(v, 300) : undefined);
        const status = [line(p.status_emoji), line(p.status_text)].filter(Boolean).join(' ');
        const profile = compact({
          user: user_id,
          realName: line(p.real_name),
          displayName: line(p.display_name),
          title: line(p.title),
          email: line(p.email),
          phone: line(p.phone),
          status: status || undefined,
          pronouns: line(p.pronouns),
        });
        config.directory.rememberUser({
          id: user_id,
          ...(typeof p.display_name === 'string' ? { profile: { display_name: p.display_name } } : {}),
          ...(typeof p.real_name === 'string' ? { real_name: p.real_name } : {}),
        });
        const lines = Object.entries(profile)
          .filter(([k]) => k !== 'user')
          .map(([k, v]) => `${k}: ${v}`);
        const resolved = ref === user_id ? '' : ` (${t.line(ref, 300)} resolved to ${user_id})`;
        return respond({ profile }, [`Profile of ${user_id}${resolved}`, ...lines], t);
      },
    }),
  ];
}
