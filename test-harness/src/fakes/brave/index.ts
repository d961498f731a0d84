// A fake Brave Search API for the search server's tests, demo and bench: web, local, news, video
// and image search on 127.0.0.1 under /res/v1, with Brave's rate-limit headers and a plan it
// enforces (429 + Retry-After), Brave's error envelope, and replies checked against the JSON
// Schemas in specs/brave (./spec.ts). This file only re-exports.
export {
  BRAVE_KEY,
  type BravePlan,
  type BraveScene,
  braveError,
  FakeBrave,
  FREE_PLAN,
  PAID_PLAN,
} from './fake-brave.js';
export * from './objects.js';
export { registerBraveRoutes, searchArgs } from './routes.js';
export { startFakeBrave } from './start.js';
