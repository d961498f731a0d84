// The fake-API toolkit: fake upstream HTTP APIs for API servers' tests, demo and bench.
export { compileRoute, type RouteParams, type RoutePattern } from './routes.js';
export {
  FAULT_MESSAGES,
  FakeApi,
  type FakeApiOptions,
  type FakeReply,
  type FakeRequest,
  type Fault,
  type RequestMatcher,
  type RouteHandler,
  startFakeApi,
} from './server.js';
