/** The startup check for better-sqlite3's addon (src/native.ts), on a fake install in a temp dir. */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '@refmcp/shared/server';
import { afterAll, describe, expect, it } from 'vitest';
import { checkNativeModule } from '../src/native.js';

const dir = mkdtempSync(join(tmpdir(), 'refmcp-native-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const pkg = join(dir, 'node_modules', 'better-sqlite3');
// Resolution as Node does it from a module in `dir` (the test runner's NODE_PATH would find the real install).
const resolveInDir = (id: string) => {
  const file = join(dir, 'node_modules', id);
  if (!existsSync(file))
    throw Object.assign(new Error(`Cannot find module '${id}'`), { code: 'MODULE_NOT_FOUND' });
  return file;
};

describe('checkNativeModule', () => {
  it('names the fix when the package or its addon is missing, and passes once the addon is there', () => {
    expect(() => checkNativeModule(resolveInDir)).toThrow(ConfigError);
    expect(() => checkNativeModule(resolveInDir)).toThrow(/better-sqlite3 is not installed/);
    mkdirSync(pkg, { recursive: true });
    writeFileSync(join(pkg, 'package.json'), '{"name":"better-sqlite3","main":"index.js"}');
    expect(() => checkNativeModule(resolveInDir)).toThrow(
      /native module is missing \(.*build\/Release\/better_sqlite3\.node\): its install did not finish.*~\/\.npm\/_npx/,
    );
    mkdirSync(join(pkg, 'build', 'Release'), { recursive: true });
    writeFileSync(join(pkg, 'build', 'Release', 'better_sqlite3.node'), '');
    expect(() => checkNativeModule(resolveInDir)).not.toThrow();
  });

  it('passes for the real install', () => {
    expect(() => checkNativeModule()).not.toThrow();
  });
});
