import { defineConfig } from 'vitest/config';

// Each test spawns the built server: 5 s is too tight on a busy 2-core machine. The globalSetup
// checks all traffic the tests sent to the fake Brave against the JSON Schemas written from
// Brave's response-model documentation (test-harness/specs/brave).
export default defineConfig({
  test: { testTimeout: 30_000, hookTimeout: 60_000, globalSetup: ['./test/spec-check.setup.ts'] },
});
