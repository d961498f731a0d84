/**
 * People by name or email, and the DM with a person:
 * - an email is looked up with users.lookupByEmail (scope `users:read.email`); without that
 *   scope, the cached directory's emails are searched instead (users.list carries emails only with
 *   that scope too, so the answer says which scope is missing when nothing matches);
 * - `@name` matches a member's handle, display name or real name, case-insensitive, in the
 *   directory: users.list walked once ({@link MAX_PAGES} pages of 200) and kept for
 *   {@link DIRECTORY_TTL_MS}; two people with that name are an error listing both;
 * - the DM with a person is found among the token's DMs (conversations.list types=im, im:read):
 *   reading never opens a new one.
 */
import { ToolError } from '@refmcp/shared';
import type { Directory, RawUser } from './directory.js';
import { EMAIL, USER_ID } from './names.js';
import type { SlackClient } from './slack/client.js';

/** Pages of users.list walked for the directory (200 members each). */
export const MAX_PAGES = 50;
/** How long the walked directory is used before it is walked again, in ms. */
export const DIRECTORY_TTL_MS = 10 * 60_000;

/** A member as the directory keeps it. */
export interface Member {
  id: string;
  handle: string;
  displayName?: string;
  realName?: string;
  email?: string;
  deleted?: boolean;
  bot?: boolean;
}

/** A resolved person: the id and how the argument named them. */
export interface Person {
  id: string;
  /** `@alice` (their handle), for "resolved @alice → U0ALICE". */
  label: string;
}

interface RawMember extends RawUser {
  is_bot?: boolean;
  profile?: RawUser['profile'] & { email?: string };
}

function toMember(u: RawMember): Member | undefined {
  if (typeof u.id !== 'string' || !u.id) return undefined;
  return {
    id: u.id,
    handle: u.name ?? u.id,
    ...(u.profile?.display_name ? { displayName: u.profile.display_name } : {}),
    ...(u.real_name || u.profile?.real_name ? { realName: u.real_name || u.profile?.real_name } : {}),
    ...(u.profile?.email ? { email: u.profile.email } : {}),
    ...(u.deleted ? { deleted: true } : {}),
    ...(u.is_bot ? { bot: true } : {}),
  };
}

export class People {
  private walked: { at: number; members: Promise<Member[]> } | undefined;
  private readonly dms = new Map<string, string>();

  constructor(
    private readonly slack: SlackClient,
    private readonly directory: Directory,
  ) {}

  /** Every member (users.list walked, cached; module comment). Errors: SlackApiError. */
  members(signal?: AbortSignal): Promise<Member[]> {
    if (this.walked && Date.now() - this.walked.at < DIRECTORY_TTL_MS) return this.walked.members;
    const members = (async () => {
      const out: Member[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < MAX_PAGES; page++) {
        const answer = await this.slack.call('users.list', { limit: 200, cursor }, { signal });
        for (const raw of (answer.members as RawMember[] | undefined) ?? []) {
          this.directory.rememberUser(raw);
          const m = toMember(raw);
          if (m) out.push(m);
        }
        cursor = answer.response_metadata?.next_cursor || undefined;
        if (!cursor) break;
      }
      return out;
    })();
    const entry = { at: Date.now(), members };
    members.catch(() => {
      if (this.walked === entry) this.walked = undefined;
    });
    this.walked = entry;
    return members;
  }

  /**
   * Members whose handle, display name, real name or email contains `query` (case-insensitive),
   * exact matches first; an email also through users.lookupByEmail. At most `limit`.
   */
  async find(query: string, limit: number, signal?: AbortSignal): Promise<Member[]> {
    const q = query.replace(/^@/, '').trim().toLowerCase();
    const found = new Map<string, Member>();
    if (EMAIL.test(q)) {
      const byEmail = await this.lookupEmail(q, signal);
      if (byEmail) found.set(byEmail.id, byEmail);
    }
    const members = await this.members(signal);
    const fields = (m: Member) => [m.handle, m.displayName, m.realName, m.email].filter(Boolean) as string[];
    const exact = members.filter((m) => fields(m).some((f) => f.toLowerCase() === q));
    const partial = members.filter((m) => fields(m).some((f) => f.toLowerCase().includes(q)));
    for (const m of [...exact, ...partial]) if (!found.has(m.id)) found.set(m.id, m);
    return [...found.values()].slice(0, limit);
  }

  /**
   * The person `ref` names: a user id as is, an email, or `@name` (module comment). Errors:
   * ToolError when no one or more than one person has that name or email.
   */
  async resolve(ref: string, signal?: AbortSignal): Promise<Person> {
    if (USER_ID.test(ref)) {
      const name = this.directory.userName(ref);
      return { id: ref, label: name ? `@${name}` : ref };
    }
    if (EMAIL.test(ref)) {
      const m =
        (await this.lookupEmail(ref, signal)) ??
        (await this.members(signal)).find((x) => x.email?.toLowerCase() === ref.toLowerCase());
      if (!m)
        throw new ToolError(
          `no member has the email ${ref} (or the token cannot see emails: that needs the users:read.email scope). Find them with slack_find_users by name.`,
        );
      return { id: m.id, label: `@${m.handle}` };
    }
    const name = ref.replace(/^@/, '').trim().toLowerCase();
    const members = (await this.members(signal)).filter((m) => !m.deleted);
    const byHandle = members.filter((m) => m.handle.toLowerCase() === name);
    const matches = byHandle.length
      ? byHandle
      : members.filter((m) => m.displayName?.toLowerCase() === name || m.realName?.toLowerCase() === name);
    if (matches.length === 0)
      throw new ToolError(`no member is named @${name}. Find them with slack_find_users.`);
    if (matches.length > 1)
      throw new ToolError(
        `${matches.length} members are named @${name}: ${matches
          .slice(0, 10)
          .map((m) => `@${m.handle} (${m.id})`)
          .join(', ')}. Give the user ID.`,
      );
    const [m] = matches as [Member];
    return { id: m.id, label: `@${m.handle}` };
  }

  /**
   * The id of the token's DM with `userId`, from conversations.list types=im (cached). Errors:
   * ToolError when the token has no DM with them; SlackApiError (missing im:read).
   */
  async dmWith(person: Person, signal?: AbortSignal): Promise<string> {
    const known = this.dms.get(person.id);
    if (known) return known;
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const answer = await this.slack.call(
        'conversations.list',
        { types: 'im', limit: 1000, cursor },
        { signal },
      );
      for (const c of (answer.channels as { id?: string; user?: string }[] | undefined) ?? [])
        if (c.id && c.user) this.dms.set(c.user, c.id);
      if (this.dms.has(person.id)) break;
      cursor = answer.response_metadata?.next_cursor || undefined;
      if (!cursor) break;
    }
    const id = this.dms.get(person.id);
    if (!id) throw new ToolError(`the token has no DM with ${person.label} (${person.id})`);
    return id;
  }

  /** users.lookupByEmail; undefined when no one has it or the token lacks users:read.email. */
  private async lookupEmail(email: string, signal?: AbortSignal): Promise<Member | undefined> {
    try {
      const answer = await this.slack.call('users.lookupByEmail', { email }, { signal });
      const raw = (answer.user ?? {}) as RawMember;
      this.directory.rememberUser(raw);
      return toMember(raw);
    } catch (error) {
      const reason = (error as { reason?: string }).reason;
      if (reason === 'users_not_found' || reason === 'missing_scope' || reason === 'not_allowed_token_type')
        return undefined;
      throw error;
    }
  }
}
