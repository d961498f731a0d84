// @refmcp/test-harness: drive built MCP servers over stdio as a host does.

export { compileJsonSchema, type SchemaVerdict } from '@refmcp/shared/json-schema';
export {
  type BuiltServer,
  builtServerTarget,
  type CheckedResult,
  callChecked,
  callOk,
  listedTools,
  NO_PACING,
  outputProblems,
  reachableServerTarget,
  type StartBuiltServerOptions,
  startBuiltServer,
  structured,
  tempDir,
} from './built-server.js';
export { CHECKS, checkServer } from './check-server.js';
export {
  answersToolsList,
  type CallOutcome,
  type CheckReport,
  type CheckResult,
  type CheckServerOptions,
  callTool,
  listAllTools,
  resultText,
  type SlowCall,
} from './checks/context.js';
export { canonicalJson, diffToolLists } from './checks/eras.js';
export {
  hostileCases,
  judgeNamedError,
  judgeOddString,
  ODD_STRINGS,
  UNKNOWN_KEY,
  UNKNOWN_TOOL,
  wrongTypeCase,
} from './checks/hostile-args.js';
export { toolMetadataProblems } from './checks/metadata.js';
export {
  inputSchemaPortabilityProblems,
  outputSchemaStrictProblems,
  type StrictConversion,
  toOpenAiStrict,
  toolPortabilityProblems,
} from './checks/portability.js';
export { DEBUG_ENV } from './checks/purity.js';
export {
  answerElicitations,
  cancelAtBeat,
  type ElicitAnswer,
  type ProgressSeen,
} from './client-answers.js';
export {
  type Connection,
  type ConnectOptions,
  connect,
  describeCommand,
  type Era,
  MODERN_PROTOCOL_VERSION,
  serverBin,
} from './connect.js';
export {
  renderToolsetsTable,
  renderToolsetTables,
  renderToolsTable,
  type ToolsetSection,
  withGeneratedSection,
  withToolsTable,
} from './docs.js';
export * from './fake-api/index.js';
export { FAKE_VENDORS, type FakeVendorName, type RunningFake, startNamedFake } from './fake-command.js';
export { formatCallResult, formatReport, formatTools } from './format.js';
export {
  HostConfigError,
  type HostConfigServer,
  readHostConfig,
  serverEntries,
} from './host-config.js';
export {
  connectHttp,
  type HttpServer,
  HttpServerExited,
  httpLogLines,
  httpStartupFailure,
  type RawHttpResponse,
  rawHttp,
  type StartHttpServerOptions,
  startHttpServer,
} from './http.js';
export { assertNoInvisible, findInvisible, type InvisibleChar } from './invisible.js';
export { blockedHosts, installLoopbackGuard, LOOPBACK_HOSTS, loopbackGuardEnv } from './loopback.js';
export { findDuplicates, followPages, type PageWalk } from './pagination.js';
export {
  bytesReadBy,
  cpuTimeMs,
  descendantPids,
  descendants,
  isAlive,
  type ProcessId,
  peakRssBytes,
} from './process-tree.js';
export { buildRegistry, checkRegistry, readServerPackages, registryText, writeRegistry } from './registry.js';
export {
  exampleNginxConfigPath,
  NGINX_MISSING,
  type NginxService,
  nginxConfigFor,
  nginxInstalled,
  startNginx,
} from './services/nginx.js';
export { type OAuthIssuer, startOAuthIssuer } from './services/oauth-issuer.js';
export { freePort } from './services/ports.js';
export { type PostgresService, type StartPostgresOptions, startPostgres } from './services/postgres.js';
export {
  SEARX_MISSING,
  type SearxEngine,
  type SearxService,
  searxInstalled,
  searxSettings,
  startSearx,
} from './services/searx.js';
export {
  allowsExtraKeys,
  type JsonSchema,
  type PropertyInfo,
  synthesizeArgs,
  synthesizeValue,
  topLevelProperties,
} from './synthesize.js';
export {
  checkToolSnapshots,
  readToolSnapshots,
  type ToolSnapshot,
  type ToolSnapshotOptions,
  type ToolSnapshotReport,
  toolSnapshotText,
  UPDATE_TOOLSNAPS_ENV,
} from './toolsnaps.js';
export { exitsWithin, type LaunchTarget, type ProcessExit, RecordingStdioTransport } from './transport.js';
