/**
 * What reaches outside the database, as data over PostgreSQL's parse tree: statement kinds (parse
 * node types), functions (by name) and settings refused in every mode, each with the reason the
 * model is told and the PostgreSQL documentation it comes from
 * (https://www.postgresql.org/docs/current/…). Read-only-ness is NOT decided here: PostgreSQL's
 * READ ONLY transaction enforces that. These rules cover what a READ ONLY transaction still allows,
 * or what would escape the transaction: server files, programs, other connections and backends,
 * session identity, and SQL hidden from inspection (procedural code, SQL given as text).
 *
 * Node type and field names are those of PostgreSQL's parse nodes (src/include/nodes/parsenodes.h)
 * as libpg_query prints them.
 */

/** Why something is refused. */
export interface Rule {
  reason: string;
  source: string;
  /** Not about reaching outside: each call is one transaction that the server opens and ends. */
  transactionControl?: boolean;
  /** What the model should do instead, when the default (nothing reaching outside runs, in any mode) does not fit. */
  advice?: string;
}

/** A refusal: the rule (reason, documentation) and whether it was found in a function body. */
export class Refusal extends Error {
  override name = 'Refusal';
  constructor(
    readonly rule: Rule,
    readonly inBody = false,
  ) {
    super(inBody ? `${rule.reason} (found in a function body)` : rule.reason);
  }
}

type Fields = Record<string, unknown>;

/**
 * Statements refused wherever they appear (top level, inside EXPLAIN/PREPARE/CREATE RULE, or in a
 * function body), by node type; a function of the node's fields picks the rule, or none.
 */
export const NODE_RULES: Record<string, (node: Fields) => Rule | undefined> = {
  CopyStmt: (n) =>
    n.is_program
      ? { reason: 'COPY … PROGRAM runs a program on the database server', source: 'sql-copy.html' }
      : n.filename !== undefined
        ? {
            reason: 'COPY with a file name reads or writes files on the database server',
            source: 'sql-copy.html',
          }
        : {
            reason:
              'COPY … STDIN/STDOUT needs the COPY sub-protocol, which this server does not carry; use SELECT to read, INSERT to write',
            source: 'sql-copy.html; protocol-flow.html#PROTOCOL-COPY',
          },
  LoadStmt: () => ({
    reason: 'LOAD loads a shared library from the server file system',
    source: 'sql-load.html',
  }),
  DoStmt: () => ({
    reason: 'DO runs procedural code (dynamic SQL) that cannot be checked before it runs',
    source: 'sql-do.html',
  }),
  AlterSystemStmt: () => ({
    reason: 'ALTER SYSTEM writes the server configuration file',
    source: 'sql-altersystem.html',
  }),
  CreateExtensionStmt: () => EXTENSION,
  AlterExtensionStmt: () => EXTENSION,
  AlterExtensionContentsStmt: () => EXTENSION,
  CreatePLangStmt: () => ({
    reason: 'procedural languages run server-side code',
    source: 'sql-createlanguage.html',
  }),
  CreateTableSpaceStmt: () => ({
    reason: 'tablespaces are directories on the server file system',
    source: 'sql-createtablespace.html',
  }),
  CreateFdwStmt: () => FOREIGN_WRAPPER,
  AlterFdwStmt: () => FOREIGN_WRAPPER,
  CreateForeignServerStmt: () => FOREIGN_SERVER,
  AlterForeignServerStmt: () => FOREIGN_SERVER,
  CreateForeignTableStmt: () => FOREIGN_TABLE,
  AlterTableStmt: (n) => (n.objtype === 'OBJECT_FOREIGN_TABLE' ? FOREIGN_TABLE : undefined),
  CreateUserMappingStmt: () => USER_MAPPING,
  AlterUserMappingStmt: () => USER_MAPPING,
  ImportForeignSchemaStmt: () => ({
    reason: 'IMPORT FOREIGN SCHEMA connects to another server',
    source: 'sql-importforeignschema.html',
  }),
  CreateSubscriptionStmt: () => SUBSCRIPTION,
  AlterSubscriptionStmt: () => SUBSCRIPTION,
  DropSubscriptionStmt: () => SUBSCRIPTION,
  VariableSetStmt: (n) => settingRule(typeof n.name === 'string' ? n.name : ''),
  TransactionStmt: (n) => TRANSACTION_RULES[String(n.kind)],
};

const EXTENSION: Rule = {
  reason: 'extensions install server-side code (C libraries, untrusted languages, dblink, file access)',
  source: 'sql-createextension.html',
};
const FOREIGN_WRAPPER: Rule = {
  reason: 'foreign-data wrappers run handler code that reads other servers, files and programs',
  source: 'sql-createforeigndatawrapper.html',
};
const FOREIGN_SERVER: Rule = {
  reason: 'foreign servers connect to other databases and services',
  source: 'sql-createserver.html',
};
const FOREIGN_TABLE: Rule = {
  reason: 'foreign tables read other servers, files and programs (file_fdw, postgres_fdw)',
  source: 'sql-createforeigntable.html; sql-alterforeigntable.html',
};
const USER_MAPPING: Rule = {
  reason: 'user mappings hold credentials for other servers',
  source: 'sql-createusermapping.html',
};
const SUBSCRIPTION: Rule = {
  reason: 'subscriptions connect to other servers (DROP SUBSCRIPTION too, to drop its replication slot)',
  source: 'sql-createsubscription.html; sql-dropsubscription.html',
};

const OWN_TRANSACTION = (what: string): Rule => ({
  reason: `${what}: each call runs in its own transaction, which this server opens and ends`,
  source: 'sql-begin.html; sql-commit.html',
  transactionControl: true,
  advice:
    'Send the statements of a unit of work one per call: reads are rolled back, and each execute call is committed on its own.',
});

/** TransactionStmt kinds (TransactionStmtKind in parsenodes.h). */
const TRANSACTION_RULES: Record<string, Rule> = {
  TRANS_STMT_PREPARE: {
    reason: 'PREPARE TRANSACTION leaves a transaction that outlives this call and holds its locks',
    source: 'sql-prepare-transaction.html',
  },
  TRANS_STMT_COMMIT_PREPARED: {
    reason: 'COMMIT PREPARED finishes another session’s transaction',
    source: 'sql-commit-prepared.html',
  },
  TRANS_STMT_ROLLBACK_PREPARED: {
    reason: 'ROLLBACK PREPARED finishes another session’s transaction',
    source: 'sql-rollback-prepared.html',
  },
  TRANS_STMT_BEGIN: OWN_TRANSACTION('BEGIN'),
  TRANS_STMT_START: OWN_TRANSACTION('START TRANSACTION'),
  TRANS_STMT_COMMIT: OWN_TRANSACTION('COMMIT'),
  TRANS_STMT_ROLLBACK: OWN_TRANSACTION('ROLLBACK'),
  TRANS_STMT_SAVEPOINT: OWN_TRANSACTION('SAVEPOINT'),
  TRANS_STMT_RELEASE: OWN_TRANSACTION('RELEASE SAVEPOINT'),
  TRANS_STMT_ROLLBACK_TO: OWN_TRANSACTION('ROLLBACK TO SAVEPOINT'),
};

/**
 * Settings refused in SET/RESET, ALTER ROLE/DATABASE … SET and a function's SET clause (all parse
 * as VariableSetStmt): identity, and the ones that load libraries.
 */
export function settingRule(name: string): Rule | undefined {
  const n = name.toLowerCase();
  if (n === 'role')
    return {
      reason: 'SET/RESET ROLE changes the privileges the server was configured with',
      source: 'sql-set-role.html',
    };
  if (n === 'session_authorization')
    return {
      reason: 'SET SESSION AUTHORIZATION changes the privileges the server was configured with',
      source: 'sql-set-session-authorization.html',
    };
  if (LIBRARY_SETTINGS.includes(n))
    return {
      reason: `${n} loads shared libraries from the server file system`,
      source: 'runtime-config-client.html#RUNTIME-CONFIG-CLIENT-PRELOAD',
    };
  return undefined;
}

const LIBRARY_SETTINGS = [
  'session_preload_libraries',
  'local_preload_libraries',
  'shared_preload_libraries',
  'dynamic_library_path',
];

interface FunctionRule extends Rule {
  /** Exact names, lower case. */
  names: string[];
  /** Name prefixes, lower case. */
  prefixes?: string[];
}

const FUNCTION_RULES: FunctionRule[] = [
  {
    names: [
      'pg_read_file',
      'pg_read_binary_file',
      'pg_stat_file',
      'pg_ls_dir',
      'pg_current_logfile',
      'pg_file_write',
      'pg_file_rename',
      'pg_file_unlink',
      'pg_file_sync',
      'pg_logdir_ls',
    ],
    prefixes: ['pg_ls_'],
    reason: 'reads or writes server files',
    source: 'functions-admin.html#FUNCTIONS-ADMIN-GENFILE; adminpack.html',
  },
  {
    names: ['lo_import', 'lo_export'],
    reason: 'server-side lo_import/lo_export read and write server files',
    source: 'lo-funcs.html',
  },
  {
    names: [],
    prefixes: ['dblink', 'pg_background'],
    reason: 'opens other database connections or background sessions (outside this transaction)',
    source: 'dblink.html',
  },
  {
    names: [
      'query_to_xml',
      'query_to_xmlschema',
      'query_to_xml_and_xmlschema',
      'cursor_to_xml',
      'cursor_to_xmlschema',
      'ts_stat',
      'ts_rewrite',
    ],
    reason: 'runs SQL given as text, which cannot be checked before it runs',
    source: 'functions-xml.html#FUNCTIONS-XML-MAPPING; textsearch-features.html',
  },
  {
    names: ['set_config'],
    reason: 'set_config can change the role or session user; use SET for settings',
    source: 'functions-admin.html#FUNCTIONS-ADMIN-SET',
  },
  {
    names: ['setseed'],
    reason:
      'sets the seed of random() for the whole session, which outlives this call (neither ROLLBACK nor DISCARD ALL resets it)',
    source: 'functions-math.html#FUNCTIONS-MATH-RANDOM-TABLE; sql-discard.html',
    advice:
      'random() needs no seed; for a repeatable sample use TABLESAMPLE … REPEATABLE (seed), which seeds only its own scan.',
  },
  {
    names: [
      'pg_cancel_backend',
      'pg_terminate_backend',
      'pg_reload_conf',
      'pg_rotate_logfile',
      'pg_log_backend_memory_contexts',
      'pg_promote',
      'pg_switch_wal',
      'pg_create_restore_point',
      'pg_backup_start',
      'pg_backup_stop',
      'pg_start_backup',
      'pg_stop_backup',
      'pg_wal_replay_pause',
      'pg_wal_replay_resume',
      'pg_create_physical_replication_slot',
      'pg_create_logical_replication_slot',
      'pg_drop_replication_slot',
      'pg_copy_physical_replication_slot',
      'pg_copy_logical_replication_slot',
      'pg_replication_slot_advance',
      'pg_logical_slot_get_changes',
      'pg_logical_slot_get_binary_changes',
      'pg_logical_emit_message',
      'pg_sync_replication_slots',
      'pg_import_system_collations',
      'pg_stat_statements_reset',
    ],
    prefixes: ['pg_stat_reset', 'pg_replication_origin_'],
    reason: 'signals other backends or changes server state outside this transaction',
    source: 'functions-admin.html (signaling, backup, recovery, replication); pgstatstatements.html',
  },
];

/** The rule a function name (any case; schema-qualified or not) falls under, if any. */
export function functionRule(name: string): Rule | undefined {
  const n = name.toLowerCase();
  return FUNCTION_RULES.find((r) => r.names.includes(n) || r.prefixes?.some((p) => n.startsWith(p)));
}

/**
 * Languages whose function bodies are parsed and checked like any SQL: `sql` and `plpgsql`. C and
 * internal functions, and the untrusted languages (by PostgreSQL's convention their names end in
 * "u": plperlu, plpython3u, pltclu), reach files, programs and the network (xplang.html,
 * sql-createlanguage.html); the bodies of other languages cannot be checked by PostgreSQL's parser.
 */
export function languageRule(language: string): Rule | undefined {
  const l = language.toLowerCase();
  if (l === 'sql' || l === 'plpgsql') return undefined;
  if (l === 'c' || l === 'internal' || (l.startsWith('pl') && l.endsWith('u')))
    return {
      reason: `LANGUAGE ${l}: C, internal and untrusted languages run code outside the database`,
      source: 'xplang.html; sql-createfunction.html',
    };
  return {
    reason: `LANGUAGE ${l}: only sql and plpgsql function bodies can be checked before they run`,
    source: 'sql-createfunction.html; xplang.html',
  };
}
