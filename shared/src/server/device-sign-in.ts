/**
 * A {@link SignIn} driven by the OAuth 2.0 Device Authorization Grant (RFC 8628; the poller is
 * upstream/device-flow.ts), for a vendor whose browser sign-in the server completes by polling:
 * GitHub (`/login/device/code`, `/login/oauth/access_token`) and GitLab 17.1+
 * (`/oauth/authorize_device`, `/oauth/token`). One flow at a time per process, bounded by the
 * vendor's `expires_in`; cancelling it (the user declined) stops the polling. The vendor's parts
 * (endpoints, what the user is told, what a refusal means, where the token goes) are options.
 */
import {
  type DeviceCode,
  DeviceFlowError,
  type DeviceToken,
  pollDeviceToken,
  requestDeviceCode,
} from '../upstream/device-flow.js';
import { oneFlowAtATime, type SignIn, type SignInFlow } from './sign-in.js';

/** Options of {@link deviceFlowSignIn}. */
export interface DeviceSignInOptions {
  /** The vendor's name in messages ("GitHub"). */
  vendor: string;
  /** The device authorization endpoint (RFC 8628 §3.1). */
  deviceCodeUrl: string;
  /** The token endpoint (§3.4). */
  tokenUrl: string;
  clientId: string;
  /** OAuth scopes asked for, space-separated. */
  scope: string;
  /** Per-request timeout, in milliseconds. */
  timeoutMs: number;
  userAgent: string;
  /** Writes one line to stderr. */
  log: (line: string) => void;
  /** True while a sign-in is needed (no usable token). */
  needed(): boolean;
  /** Uses (and saves) the token once the user approved. Errors are logged, not fatal. */
  onToken(token: DeviceToken): void;
  /** What the user is told with the URL (who asks, the code to enter or check). */
  message(code: DeviceCode): string;
  /** The error for a client that cannot open URLs (names the token variable). */
  cannotAsk: string;
  /** Why sign-in through the client is off in this mode (HTTP reachable from other machines). */
  off?: string;
}

/** Why the flow failed, for the model: the vendor's refusal in words. */
function why(vendor: string, error: unknown): string {
  if (error instanceof DeviceFlowError) {
    if (error.code === 'access_denied') return `the user denied access on ${vendor}`;
    if (error.code === 'expired_token' || error.code === 'timeout') return error.message;
    return `${vendor} refused the device flow (${error.message})`;
  }
  return (error as Error).message;
}

/** The device-grant SignIn (module comment). */
export function deviceFlowSignIn(options: DeviceSignInOptions): SignIn {
  const request = (signal: AbortSignal) => ({
    clientId: options.clientId,
    timeoutMs: options.timeoutMs,
    userAgent: options.userAgent,
    signal,
  });
  const start = async (): Promise<SignInFlow> => {
    if (options.off) throw new Error(options.off);
    const stop = new AbortController();
    const code = await requestDeviceCode(options.deviceCodeUrl, options.scope, request(stop.signal)).catch(
      (error: unknown) => {
        throw new Error(why(options.vendor, error));
      },
    );
    const done = pollDeviceToken({
      ...request(stop.signal),
      url: options.tokenUrl,
      code,
      onSlowDown: (seconds) => options.log(`${options.vendor} asked to poll slower: every ${seconds} s`),
    }).then(
      (token) => options.onToken(token),
      (error: unknown) => {
        throw new Error(
          `${stop.signal.aborted ? String(stop.signal.reason) : why(options.vendor, error)}; call the tool again to sign in again`,
        );
      },
    );
    const flow: SignInFlow = {
      url: code.verification_uri_complete ?? code.verification_uri,
      message: options.message(code),
      done,
      cancel: (reason) => stop.abort(reason),
    };
    done.catch(() => {}).finally(() => stop.abort('the sign-in ended'));
    return flow;
  };
  return {
    needed: () => options.needed(),
    ...oneFlowAtATime(start),
    unavailable: () => options.off,
    cannotAsk: () => options.off ?? options.cannotAsk,
  };
}
