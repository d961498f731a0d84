/**
 * Integer flags (`--max-rows 500`, `--timeout 1500`) read from parseArgs values, with one wording
 * of the error for every server.
 */
import { ConfigError } from './errors.js';

/** Bounds and unit of an integer flag. */
export interface IntFlagLimits {
  /** Least value accepted; default 1. */
  min?: number;
  /** Greatest value accepted; default none. */
  max?: number;
  /** "ms": the value is a duration in milliseconds (said so in the error). */
  unit?: 'ms';
}

/**
 * The value of `--<name>` in `values` as a safe integer within `limits`, or `fallback` when the
 * flag is absent. Errors: ConfigError "--<name>: expected … got "<raw>"" (exit 2 with usage).
 */
export function intFlag(
  values: Record<string, unknown>,
  name: string,
  fallback: number,
  limits: IntFlagLimits = {},
): number {
  const raw = values[name];
  if (raw === undefined) return fallback;
  const { min = 1, max } = limits;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < min || (max !== undefined && n > max))
    throw new ConfigError(`--${name}: expected ${expected(min, limits)}, got "${raw}"`);
  return n;
}

function expected(min: number, { max, unit }: IntFlagLimits): string {
  if (max !== undefined) return `an integer from ${min} to ${max}`;
  if (unit === 'ms') return `a whole number of milliseconds ≥ ${min}`;
  return min === 1 ? 'a positive integer' : `an integer ≥ ${min}`;
}
