/**
 * The opt-in `sharing` toolset: who a file is shared with (permissions.list), sharing it
 * (permissions.create: a user, group, domain or anyone with the link; never ownership), changing
 * a grantee's role (permissions.update) and removing a permission (permissions.delete; the
 * owner's cannot be removed). Email addresses and names are third-party text.
 */
import type { drive_v3 } from '@googleapis/drive';
import { z } from '@refmcp/shared/schema';
import { compact, OPEN_WORLD_HINTS, ToolError } from '@refmcp/shared/server';
import { neutralizedField, respond, UntrustedText } from '@refmcp/shared/untrusted';
import type { Config } from '../config.js';
import { fileIdArg, fileIdOf } from '../names.js';
import type { DriveTool } from '../toolsets.js';
import { fileTool, scopeNote } from './common.js';

const PERMISSION_FIELDS = 'id,type,role,emailAddress,domain,displayName';

const permissionShape = z.object({
  id: z.string(),
  type: z.string().describe('user, group, domain or anyone'),
  role: z.string().describe('owner, organizer, fileOrganizer, writer, commenter or reader'),
  emailAddress: z.string().optional(),
  domain: z.string().optional(),
  displayName: z.string().optional(),
});

function toPermission(p: drive_v3.Schema$Permission, text: UntrustedText): z.infer<typeof permissionShape> {
  return compact({
    id: p.id ?? '',
    type: p.type ?? '',
    role: p.role ?? '',
    emailAddress: p.emailAddress ? text.line(p.emailAddress) : undefined,
    domain: p.domain ? text.line(p.domain) : undefined,
    displayName: p.displayName ? text.line(p.displayName) : undefined,
  });
}

const permissionIdArg = () => z.string().min(1).max(256).describe('Permission id from list_permissions');

/** A permission id (letters, digits, - and _). Errors: ToolError naming permission_id. */
function permissionIdOf(value: string): string {
  if (!/^[A-Za-z0-9_-]+$/.test(value))
    throw new ToolError('permission_id: letters, digits, - and _ only (an id from list_permissions)');
  return value;
}

const line = (p: z.infer<typeof permissionShape>) =>
  `- ${p.role}: ${p.type}${p.emailAddress ? ` ${p.emailAddress}` : ''}${p.domain ? ` ${p.domain}` : ''}${p.displayName ? ` (${p.displayName})` : ''} — permission id ${p.id}`;

export function sharingTools(config: Config): DriveTool[] {
  const scope = scopeNote(config);
  const { drive } = config;
  return [
    fileTool(config, (a: { file_id: string }) => a.file_id, 'file_id', {
      name: 'list_permissions',
      title: 'List permissions',
      toolset: 'sharing',
      description: `Who a file or folder is shared with: each permission's id, role and grantee.${scope}`,
      inputSchema: z.strictObject({ file_id: fileIdArg() }),
      outputSchema: z.object({ permissions: z.array(permissionShape), ...neutralizedField }),
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async ({ file_id }, { signal }) => {
        const id = fileIdOf(file_id);
        const res = await drive.call<drive_v3.Schema$PermissionList>(
          'GET',
          `permissions.list ${id}`,
          (o) =>
            drive.api.permissions.list(
              {
                fileId: id,
                pageSize: 100,
                supportsAllDrives: true,
                fields: `permissions(${PERMISSION_FIELDS})`,
              },
              o,
            ),
          signal,
        );
        const text = new UntrustedText();
        const permissions = (res.data.permissions ?? []).map((p) => toPermission(p, text));
        return respond(
          { permissions },
          [`${id} has ${permissions.length} permission(s):`, ...permissions.map(line)],
          text,
        );
      },
    }),
    fileTool(config, (a: { file_id: string }) => a.file_id, 'file_id', {
      name: 'share_file',
      title: 'Share file',
      toolset: 'sharing',
      description: `Share a file or folder: give a user or group (email_address), a domain, or anyone with the link a role. Ownership is never transferred.${scope}`,
      inputSchema: z.strictObject({
        file_id: fileIdArg(),
        type: z.enum(['user', 'group', 'domain', 'anyone']).describe('Who to share with'),
        role: z.enum(['reader', 'commenter', 'writer']).describe('What they may do'),
        email_address: z.string().max(320).optional().describe('For user and group'),
        domain: z.string().max(253).optional().describe('For domain'),
        notify: z.boolean().optional().describe('Email the grantee'),
      }),
      outputSchema: z.object({ permission: permissionShape, ...neutralizedField }),
      // Destructive: access once given (to anyone with the link, a domain) cannot be taken back.
      annotations: OPEN_WORLD_HINTS.destructive,
      handler: async ({ file_id, type, role, email_address, domain, notify }, { signal }) => {
        const id = fileIdOf(file_id);
        if ((type === 'user' || type === 'group') && !email_address)
          throw new ToolError(`email_address: required to share with a ${type}`);
        if (type === 'domain' && !domain) throw new ToolError('domain: required to share with a domain');
        // An argument the grantee type ignores means the model meant another grantee: sharing
        // with `anyone` or a whole domain instead of one person must be asked for exactly.
        if (email_address !== undefined && type !== 'user' && type !== 'group')
          throw new ToolError(
            `email_address: only for type user or group; with type ${type} it would be ignored and the file shared with ${type === 'anyone' ? 'anyone with the link' : 'the whole domain'}`,
          );
        if (domain !== undefined && type !== 'domain')
          throw new ToolError(`domain: only for type domain; with type ${type} it would be ignored`);
        const res = await drive.call<drive_v3.Schema$Permission>(
          'POST',
          `permissions.create ${id}`,
          (o) =>
            drive.api.permissions.create(
              {
                fileId: id,
                requestBody: {
                  type,
                  role,
                  ...(email_address && (type === 'user' || type === 'group')
                    ? { emailAddress: email_address }
                    : {}),
                  ...(domain && type === 'domain' ? { domain } : {}),
                },
                ...(type === 'user' || type === 'group' ? { sendNotificationEmail: notify === true } : {}),
                supportsAllDrives: true,
                fields: PERMISSION_FIELDS,
              },
              o,
            ),
          signal,
        );
        const text = new UntrustedText();
        const permission = toPermission(res.data, text);
        return respond({ permission }, [`Shared ${id}:`, line(permission)], text);
      },
    }),
    fileTool(config, (a: { file_id: string }) => a.file_id, 'file_id', {
      name: 'update_permission',
      title: 'Change permission',
      toolset: 'sharing',
      description: `Change one grantee's role on a file. Ownership is never transferred.${scope}`,
      inputSchema: z.strictObject({
        file_id: fileIdArg(),
        permission_id: permissionIdArg(),
        role: z.enum(['reader', 'commenter', 'writer']).describe('The new role'),
      }),
      outputSchema: z.object({ permission: permissionShape, ...neutralizedField }),
      annotations: OPEN_WORLD_HINTS.destructiveIdempotent,
      handler: async ({ file_id, permission_id, role }, { signal }) => {
        const id = fileIdOf(file_id);
        const permissionId = permissionIdOf(permission_id);
        const res = await drive.call<drive_v3.Schema$Permission>(
          'PATCH',
          `permissions.update ${id}`,
          (o) =>
            drive.api.permissions.update(
              {
                fileId: id,
                permissionId,
                requestBody: { role },
                supportsAllDrives: true,
                fields: PERMISSION_FIELDS,
              },
              o,
            ),
          signal,
        );
        const text = new UntrustedText();
        const permission = toPermission(res.data, text);
        return respond({ permission }, [`Changed on ${id}:`, line(permission)], text);
      },
    }),
    fileTool(config, (a: { file_id: string }) => a.file_id, 'file_id', {
      name: 'remove_permission',
      title: 'Remove permission',
      toolset: 'sharing',
      description: `Stop sharing a file with one grantee. The owner's permission cannot be removed.${scope}`,
      inputSchema: z.strictObject({
        file_id: fileIdArg(),
        permission_id: permissionIdArg(),
      }),
      outputSchema: z.object({ removed: z.string() }),
      annotations: OPEN_WORLD_HINTS.destructiveIdempotent,
      confirm: (a) =>
        `Remove permission ${a.permission_id} from Drive file ${a.file_id} (stop sharing it with that grantee)?`,
      handler: async ({ file_id, permission_id }, { signal }) => {
        const id = fileIdOf(file_id);
        const permissionId = permissionIdOf(permission_id);
        await drive.call(
          'DELETE',
          `permissions.delete ${id}`,
          (o) => drive.api.permissions.delete({ fileId: id, permissionId, supportsAllDrives: true }, o),
          signal,
        );
        return respond({ removed: permission_id }, [`Removed permission ${permission_id} from ${id}.`]);
      },
    }),
  ];
}
