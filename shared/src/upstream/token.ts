/**
 * API tokens from the environment: read once at startup from the first of a list of variables
 * (e.g. GITHUB_PERSONAL_ACCESS_TOKEN, then GITHUB_TOKEN), refusing values that would break or
 * split an HTTP header. The token itself never appears in an error.
 */
import { ConfigError } from '../server/errors.js';

// biome-ignore lint/suspicious/noControlCharactersInRegex: these would break the Authorization header
const HEADER_BREAKERS = /[\s\u0000-\u001f\u007f]/;

/**
 * The token in the first of `names` that is set and non-empty in `env`, trimmed; undefined when
 * none is (or the first set one is only whitespace). Errors: ConfigError naming the variable when
 * the value holds whitespace or control characters (CR/LF would inject headers).
 */
export function readToken(env: NodeJS.ProcessEnv, names: readonly string[]): string | undefined {
  const name = names.find((n) => env[n]);
  const token = (name ? (env[name] ?? '') : '').trim();
  if (!name || !token) return undefined;
  if (HEADER_BREAKERS.test(token)) throw new ConfigError(`${name} contains whitespace or control characters`);
  return token;
}
