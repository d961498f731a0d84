/** Engine side: any thrown error → a Failure the server can phrase for the model (no stack). */
import { ParamsError } from '../sql/params.js';
import { PolicyError } from '../sql/policy.js';
import { BindError, StatementCountError, WrongToolError } from './operations.js';
import type { Failure } from './protocol.js';

export function describeFailure(error: unknown): Failure {
  if (error instanceof PolicyError) return { kind: 'policy', message: error.message };
  if (error instanceof ParamsError || error instanceof BindError)
    return { kind: 'params', message: error.message };
  if (error instanceof StatementCountError) return { kind: 'statements', message: error.message };
  if (error instanceof WrongToolError) return { kind: 'wrong-tool', message: error.message };
  if (error instanceof Error && error.name === 'SqliteError') {
    const code = (error as Error & { code?: unknown }).code;
    return { kind: 'sqlite', message: error.message, ...(typeof code === 'string' ? { code } : {}) };
  }
  if (error instanceof Error) return { kind: 'internal', message: `${error.name}: ${error.message}` };
  return { kind: 'internal', message: String(error) };
}
