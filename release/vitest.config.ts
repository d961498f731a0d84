import { configDefaults, defineConfig } from 'vitest/config';

// images/ runs on its own (`run images`): it bootstraps a Debian root filesystem.
export default defineConfig({ test: { exclude: [...configDefaults.exclude, 'images/**'] } });
