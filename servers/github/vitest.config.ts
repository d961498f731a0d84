import { defineConfig } from 'vitest/config';

// Each test spawns the built server (and often waits out a rate limit): 5 s is too tight on a busy
// 2-core machine.
export default defineConfig({ test: { testTimeout: 30_000, hookTimeout: 30_000 } });
