import { defineConfig } from 'vitest/config';

// Each test spawns a client and a server (the Inspector's CLI takes 1–4 s on a busy machine).
export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
