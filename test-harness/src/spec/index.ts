// The spec check for any vendor fake: the spec-source interface, the OpenAPI 3.0 source, the check
// over recorded traffic and its vitest globalSetup.
export { checkTraffic, type TrafficReport, undescribedRoutes, validateReply } from './check.js';
export { type OpenApi30Document, type OpenApi30Options, openApi30Source, toJsonSchema } from './openapi30.js';
export { type SpecCheckOptions, specCheckSetup } from './setup.js';
export type { JsonSchema, SpecSource } from './source.js';
