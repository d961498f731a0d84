// drives.list and drives.get (Shared Drives), permissions.list/create/update/delete.
import type { FakeRequest } from '../../fake-api/server.js';
import { fail } from './errors.js';
import type { FakeDrive } from './fake-drive.js';
import { requireWrite } from './fake-drive.js';
import { selectFields } from './fields.js';
import { drivePage, flag, jsonBody, lookupFile } from './http.js';
import { driveJson, permissionJson } from './objects.js';
import type { PermissionRecord } from './state.js';

const ROLES = ['owner', 'organizer', 'fileOrganizer', 'writer', 'commenter', 'reader'];
const TYPES = ['user', 'group', 'domain', 'anyone'];

/** A Schema$Permission reply, cut by the request's `fields` (Drive's default: kind,id,type,role). */
function permissionReply(req: FakeRequest, permission: PermissionRecord) {
  return {
    body: selectFields(
      permissionJson(permission),
      'Permission',
      req.query.get('fields'),
      'kind,id,type,role',
    ),
  };
}

/** Registers the Shared Drive and permission routes. */
export function registerDriveRoutes(drive: FakeDrive): void {
  const { state } = drive;

  drive.route('GET', '/drive/v3/drives', (req) => {
    if (req.query.get('q') !== null) fail(400, 'invalid', 'Invalid Value', { location: 'q' });
    const page = drivePage(
      req,
      [...state.drives.values()].filter((d) => !d.hidden),
      10,
      100,
    );
    const full = {
      kind: 'drive#driveList',
      drives: page.items.map(driveJson),
      ...(page.next ? { nextPageToken: page.next } : {}),
    };
    return { body: selectFields(full, 'DriveList', req.query.get('fields'), '*') };
  });

  drive.route('GET', '/drive/v3/drives/:driveId', (req) => {
    const record = state.drives.get(req.params.driveId as string);
    if (!record)
      fail(404, 'notFound', `Shared drive not found: ${req.params.driveId}`, { location: 'driveId' });
    return { body: selectFields(driveJson(record), 'Drive', req.query.get('fields'), '*') };
  });

  drive.route('GET', '/drive/v3/files/:fileId/permissions', (req) => {
    const file = lookupFile(state, req, req.params.fileId as string);
    const page = drivePage(req, file.permissions, 100, 100);
    const full = {
      kind: 'drive#permissionList',
      permissions: page.items.map(permissionJson),
      ...(page.next ? { nextPageToken: page.next } : {}),
    };
    return {
      body: selectFields(
        full,
        'PermissionList',
        req.query.get('fields'),
        'kind,nextPageToken,permissions(kind,id,type,role)',
      ),
    };
  });

  drive.route('POST', '/drive/v3/files/:fileId/permissions', (req, who) => {
    requireWrite(who);
    const file = lookupFile(state, req, req.params.fileId as string);
    const body = jsonBody(req.body, 'Permission');
    const type = body.type as PermissionRecord['type'];
    const role = body.role as PermissionRecord['role'];
    if (!TYPES.includes(type))
      fail(400, 'required', 'Permission type is required.', { location: 'permission.type' });
    if (!ROLES.includes(role))
      fail(400, 'required', 'Permission role is required.', { location: 'permission.role' });
    if ((type === 'user' || type === 'group') && typeof body.emailAddress !== 'string')
      fail(400, 'required', 'Permission emailAddress is required for user and group.', {
        location: 'permission.emailAddress',
      });
    if (type === 'domain' && typeof body.domain !== 'string')
      fail(400, 'required', 'Permission domain is required for domain.', { location: 'permission.domain' });
    if (role === 'owner' && !flag(req, 'transferOwnership'))
      fail(
        403,
        'forbidden',
        "The transferOwnership parameter must be enabled when the permission role is 'owner'.",
        { location: 'transferOwnership' },
      );
    const permission: PermissionRecord = {
      id: type === 'anyone' ? 'anyoneWithLink' : state.newId('0P'),
      type,
      role,
      ...(typeof body.emailAddress === 'string' ? { emailAddress: body.emailAddress } : {}),
      ...(typeof body.domain === 'string' ? { domain: body.domain } : {}),
    };
    file.permissions.push(permission);
    return permissionReply(req, permission);
  });

  drive.route('PATCH', '/drive/v3/files/:fileId/permissions/:permissionId', (req, who) => {
    requireWrite(who);
    const file = lookupFile(state, req, req.params.fileId as string);
    const permission = file.permissions.find((p) => p.id === req.params.permissionId);
    if (!permission)
      fail(404, 'notFound', `Permission not found: ${req.params.permissionId}.`, {
        location: 'permissionId',
      });
    const body = jsonBody(req.body, 'Permission');
    const role = body.role as PermissionRecord['role'] | undefined;
    if (role !== undefined && !ROLES.includes(role))
      fail(400, 'invalid', 'The provided role is invalid.', { location: 'permission.role' });
    if (permission.role === 'owner' || (role === 'owner' && !flag(req, 'transferOwnership')))
      fail(
        403,
        'forbidden',
        "The transferOwnership parameter must be enabled when the permission role is 'owner'.",
        { location: 'transferOwnership' },
      );
    if (role) permission.role = role;
    return permissionReply(req, permission);
  });

  drive.route('DELETE', '/drive/v3/files/:fileId/permissions/:permissionId', (req, who) => {
    requireWrite(who);
    const file = lookupFile(state, req, req.params.fileId as string);
    const index = file.permissions.findIndex((p) => p.id === req.params.permissionId);
    if (index < 0)
      fail(404, 'notFound', `Permission not found: ${req.params.permissionId}.`, {
        location: 'permissionId',
      });
    if (file.permissions[index]?.role === 'owner')
      fail(403, 'cannotRemoveOwner', 'The owner of a file cannot be removed.');
    file.permissions.splice(index, 1);
    return { status: 204 };
  });
}
