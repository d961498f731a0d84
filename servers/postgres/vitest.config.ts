import { defineConfig } from 'vitest/config';

// One throwaway PostgreSQL (or $DATABASE_URL) for the whole suite, with a fresh database and role.
export default defineConfig({
  test: {
    globalSetup: ['./test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
