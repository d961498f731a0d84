// The fake-API toolkit: fake upstream HTTP APIs for API servers' tests, demo and bench.
export {
  type CursorPage,
  type CursorPageOptions,
  cursorPage,
  type LinkPage,
  type LinkPageOptions,
  linkPage,
  type OffsetPage,
  offsetPage,
} from './paging.js';
export { type FakeReply, type RecordedReply, Reply } from './reply.js';
export { compileRoute, type RouteParams, type RoutePattern } from './routes.js';
export {
  FAULT_MESSAGES,
  FakeApi,
  type FakeApiOptions,
  type FakeRequest,
  type Fault,
  type RequestMatcher,
  type RouteHandler,
  startFakeApi,
} from './server.js';
export {
  type Exchange,
  readTraffic,
  recordExchange,
  recordTraffic,
  TRAFFIC_DIR_ENV,
  type TrafficRecording,
} from './traffic.js';
export {
  FakeVendor,
  type FakeVendorOptions,
  routeTemplate,
  startFakeVendor,
  type VendorHandler,
  type VendorHooks,
} from './vendor.js';
