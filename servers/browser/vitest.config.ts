import { defineConfig } from 'vitest/config';

// Real Chromium behind every stdio test: generous per-test budgets, and at most two test files at
// once (each drives its own browser; more would only fight over the CPU).
export default defineConfig({
  test: { testTimeout: 60_000, hookTimeout: 60_000, maxWorkers: 2 },
});
