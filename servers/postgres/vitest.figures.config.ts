import { defineConfig } from 'vitest/config';

// The insight figures (test/insight-figures.ts): a measurement, not a test — run on demand with
// `npx vitest run -c vitest.figures.config.ts`; never part of `pnpm test`.
export default defineConfig({
  test: { include: ['test/insight-figures.ts'], testTimeout: 120_000, hookTimeout: 120_000 },
});
