// The container image check: slow (a Debian root filesystem is bootstrapped once), so not in
// `npm test`; run it with `pnpm --filter @refmcp/release run images`.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { include: ['images/**/*.test.ts'], testTimeout: 300_000, hookTimeout: 900_000 },
});
