// The fake Drive's in-memory world: files (My Drive and Shared Drive), Shared Drives, permissions,
// and the OAuth side (clients, refresh tokens, access tokens with scopes and expiry, service
// accounts, authorization codes). Rendering to Drive's JSON shapes lives in objects.ts.
import { randomBytes } from 'node:crypto';

/** Google Workspace types and their export formats (what files.export accepts). */
export const GOOGLE_TYPES = {
  doc: 'application/vnd.google-apps.document',
  sheet: 'application/vnd.google-apps.spreadsheet',
  slides: 'application/vnd.google-apps.presentation',
  drawing: 'application/vnd.google-apps.drawing',
  folder: 'application/vnd.google-apps.folder',
} as const;

/** Export formats per Google type; the first is the type's natural text. */
export const EXPORT_FORMATS: Record<string, string[]> = {
  [GOOGLE_TYPES.doc]: ['text/markdown', 'text/plain', 'text/html'],
  [GOOGLE_TYPES.sheet]: ['text/csv'],
  [GOOGLE_TYPES.slides]: ['text/plain'],
  [GOOGLE_TYPES.drawing]: ['image/png'],
};

/** Drive's limit on exported content (`exportSizeLimitExceeded` above it). */
export const EXPORT_SIZE_LIMIT = 10 * 1024 * 1024;

/** Full-access and read-only Drive scopes. */
export const SCOPES = {
  drive: 'https://www.googleapis.com/auth/drive',
  readonly: 'https://www.googleapis.com/auth/drive.readonly',
  file: 'https://www.googleapis.com/auth/drive.file',
  metadataReadonly: 'https://www.googleapis.com/auth/drive.metadata.readonly',
} as const;

/** One permission on a file or Shared Drive. */
export interface PermissionRecord {
  id: string;
  type: 'user' | 'group' | 'domain' | 'anyone';
  role: 'owner' | 'organizer' | 'fileOrganizer' | 'writer' | 'commenter' | 'reader';
  emailAddress?: string;
  domain?: string;
  displayName?: string;
}

/** One file or folder. */
/** One stored version of a file: bytes for a binary file, exports for a Google type. */
export interface RevisionRecord {
  id: string;
  modifiedTime: string;
  content?: Buffer;
  exports?: Record<string, Buffer>;
  keepForever?: boolean;
}

export interface FileRecord {
  id: string;
  name: string;
  mimeType: string;
  parents: string[];
  /** The Shared Drive it lives in; undefined for My Drive. */
  driveId?: string;
  trashed: boolean;
  description?: string;
  createdTime: string;
  modifiedTime: string;
  /** Bytes of a plain (non-Google) file. */
  content?: Buffer;
  /** Exported content of a Google type, by export MIME type (generated when seeded from text). */
  exports?: Record<string, Buffer>;
  /** Earlier versions, oldest first (revisions.list); seeded by tests. */
  revisions?: RevisionRecord[];
  permissions: PermissionRecord[];
  version: number;
  starred: boolean;
  /** Comment threads, oldest first. */
  comments?: CommentRecord[];
  /** A shortcut's target (mimeType application/vnd.google-apps.shortcut). */
  shortcut?: { targetId: string; targetMimeType: string };
  /** A Doc's tabs (Docs API documents.get); unset: one tab made from the Markdown export. */
  tabs?: DocTabRecord[];
}

/** One paragraph of a Doc tab: text with a named style, a list item, or a table of cell texts. */
export type DocParagraphRecord =
  | {
      text: string;
      style?: string;
      bullet?: { level: number; ordered?: boolean };
      bold?: boolean;
      link?: string;
    }
  | { table: string[][] };

/** One tab of a Doc (Docs API `Tab`): id (`t.0`), title, its paragraphs, nested tabs. */
export interface DocTabRecord {
  id: string;
  title: string;
  paragraphs: DocParagraphRecord[];
  children?: DocTabRecord[];
}

/** A reply in a comment thread (`action`: it resolved or reopened the thread). */
export interface ReplyRecord {
  id: string;
  author: string;
  email: string;
  content: string;
  createdTime: string;
  action?: 'resolve' | 'reopen';
}

/** A comment thread on a file: what it quotes of the file, and its replies. */
export interface CommentRecord {
  id: string;
  author: string;
  email: string;
  content: string;
  createdTime: string;
  /** The text the comment is anchored to (Drive's `quotedFileContent.value`). */
  quoted?: string;
  /** Drive's opaque anchor (`kix.…` in Docs). */
  anchor?: string;
  resolved: boolean;
  deleted?: boolean;
  replies: ReplyRecord[];
}

/** A Shared Drive. */
export interface DriveRecord {
  id: string;
  name: string;
  createdTime: string;
  hidden: boolean;
}

/** An access token the fake accepts. */
export interface AccessToken {
  token: string;
  scopes: string[];
  /** Epoch ms after which Drive answers 401. */
  expiresAt: number;
  /** Who it acts as (an email). */
  subject: string;
}

/** A refresh token, with the client it was issued to. */
export interface RefreshToken {
  token: string;
  clientId: string;
  scopes: string[];
  revoked: boolean;
}

/** A service account the token endpoint accepts jwt-bearer assertions from. */
export interface ServiceAccount {
  email: string;
  /** PEM public key the assertion's RS256 signature is checked with; unchecked when absent. */
  publicKey?: string;
  /** Domain-wide delegation allowed (the assertion may carry `sub`). */
  delegation: boolean;
}

/** The standard user of the fake. */
export const ME = { email: 'me@example.com', displayName: 'Test User', permissionId: '0PERMME' };

/** Everything the fake Drive knows; tests may edit it directly. */
export class DriveState {
  readonly files = new Map<string, FileRecord>();
  readonly drives = new Map<string, DriveRecord>();
  readonly clients = new Map<string, string>(); // client_id → client_secret
  readonly refreshTokens = new Map<string, RefreshToken>();
  readonly accessTokens = new Map<string, AccessToken>();
  readonly serviceAccounts = new Map<string, ServiceAccount>();
  /** Authorization codes the token endpoint exchanges (code → scopes). */
  readonly codes = new Map<string, string[]>();
  /**
   * What the consent page bound each code it minted to (routes-consent.ts): the client, the exact
   * redirect URI and the PKCE S256 challenge, checked when the code is exchanged.
   */
  readonly codeGrants = new Map<string, { clientId: string; redirectUri: string; challenge?: string }>();
  /** What the user does on the consent page: allow (default) or deny. */
  consent: 'allow' | 'deny' = 'allow';
  /** Lifetime of issued access tokens, seconds (Google: 3599). */
  tokenLifetime = 3599;
  private counter = 0;

  /** A fresh id in Drive's style (`prefix` + counter + random). */
  newId(prefix = '1F'): string {
    this.counter++;
    return `${prefix}${this.counter.toString(36)}${randomBytes(6).toString('hex')}`;
  }

  /** Adds (or replaces) a file; defaults: in My Drive root, not trashed, now as times. */
  addFile(file: Partial<FileRecord> & { name: string; mimeType: string }): FileRecord {
    const now = new Date().toISOString();
    const record: FileRecord = {
      id: file.id ?? this.newId(),
      parents: ['root'],
      trashed: false,
      createdTime: now,
      modifiedTime: now,
      permissions: [
        {
          id: ME.permissionId,
          type: 'user',
          role: 'owner',
          emailAddress: ME.email,
          displayName: ME.displayName,
        },
      ],
      version: 1,
      starred: false,
      ...file,
    };
    this.files.set(record.id, record);
    return record;
  }

  /** Adds a Shared Drive. */
  addDrive(drive: Partial<DriveRecord> & { id: string; name: string }): DriveRecord {
    const record: DriveRecord = { createdTime: new Date().toISOString(), hidden: false, ...drive };
    this.drives.set(record.id, record);
    return record;
  }

  /** Issues an access token (default: full Drive scope, valid for {@link tokenLifetime}). */
  issueAccessToken(options: Partial<AccessToken> = {}): AccessToken {
    const token: AccessToken = {
      token: options.token ?? `ya29.fake-${randomBytes(12).toString('hex')}`,
      scopes: options.scopes ?? [SCOPES.drive],
      expiresAt: options.expiresAt ?? Date.now() + this.tokenLifetime * 1000,
      subject: options.subject ?? ME.email,
    };
    this.accessTokens.set(token.token, token);
    return token;
  }

  /** Registers an OAuth client and issues it a refresh token. */
  issueRefreshToken(
    clientId: string,
    clientSecret: string,
    scopes: string[] = [SCOPES.drive],
    token?: string,
  ): RefreshToken {
    this.clients.set(clientId, clientSecret);
    const record: RefreshToken = {
      token: token ?? `1//fake-refresh-${randomBytes(8).toString('hex')}`,
      clientId,
      scopes,
      revoked: false,
    };
    this.refreshTokens.set(record.token, record);
    return record;
  }

  /** Revokes a refresh token: the next refresh answers `invalid_grant`. */
  revoke(refreshToken: string): void {
    const record = this.refreshTokens.get(refreshToken);
    if (record) record.revoked = true;
  }
}
