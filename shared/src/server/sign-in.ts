/**
 * Sign-in through the client by URL elicitation (MCP spec 2025-11-25, "Elicitation", URL mode;
 * 2026-07-28, input-required results). A server with no usable credentials, whose vendor offers a
 * browser sign-in the server itself completes (a loopback redirect), declares a {@link SignIn};
 * every tool call then passes through {@link signInCall} before its handler runs:
 * - signed in: the call runs;
 * - the client declares `elicitation.url` (on the initialize handshake, or on a 2026-07-28 request's
 *   envelope): the user is asked to open the sign-in URL, and the call continues once the flow
 *   completes:
 *   - 2025-11-25: `elicitation/create` with `mode: "url"` and an `elicitationId` while the call
 *     waits; after an accept the call waits for the flow, then sends
 *     `notifications/elicitation/complete` and runs;
 *   - 2026-07-28: an input-required result whose `inputRequests.signin` is the URL elicitation; the
 *     client retries with the user's answer in `inputResponses.signin`, and the retry waits for the
 *     flow, then runs;
 *   - decline or cancel stops the flow and answers an error result; so does the flow failing or
 *     timing out (the SignIn bounds it);
 * - the client cannot open URLs: an error result with {@link SignIn.cannotAsk} (which names the
 *   command that signs in outside the client); so does every call when the SignIn says sign-in
 *   through the client is unavailable in this mode.
 * One flow at a time per process: a call arriving while a flow runs waits for it (2025-11-25) or
 * is shown the same URL (2026-07-28).
 */
import { randomUUID } from 'node:crypto';
import {
  CLIENT_CAPABILITIES_META_KEY,
  type ClientCapabilities,
  type ElicitResult,
  type InputRequiredResult,
  inputRequired,
  inputResponse,
  PROTOCOL_VERSION_META_KEY,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { type Progress, startHeartbeat } from './progress.js';
import { errorResult, type ToolResult } from './tool.js';

/** The key of the sign-in in a 2026-07-28 call's `inputRequests`/`inputResponses`. */
export const SIGN_IN_KEY = 'signin';

/**
 * The longest a 2025-11-25 `elicitation/create` for the URL may stay unanswered, in milliseconds; the
 * flow's own bound (the SignIn's) withdraws it sooner when the flow ends first.
 */
const ELICIT_TIMEOUT_MS = 60 * 60 * 1000;

/**
 * While a call waits on the user, one progress notification at once and then per this many
 * milliseconds, when the call asked for progress: SDK clients that reset their timeout on progress
 * (60 s by default) keep waiting.
 */
export const SIGN_IN_HEARTBEAT_MS = 5000;

/** Reports "waiting" on `progress` (see {@link SIGN_IN_HEARTBEAT_MS}) until the returned stop is called. */
function heartbeat(progress: Progress | undefined): () => void {
  if (!progress) return () => {};
  const beat = startHeartbeat(
    progress,
    (seconds) => `Waiting for the sign-in in the browser (${seconds} s)`,
    SIGN_IN_HEARTBEAT_MS,
  );
  return () => beat.stop();
}

/** One sign-in flow in progress: the URL the user opens and its outcome. */
export interface SignInFlow {
  /** The vendor's consent URL. */
  url: string;
  /** What the user is told (who asks for what), shown with the URL. */
  message: string;
  /**
   * Settles when the flow ends: resolves once the credentials are saved and in use; rejects with
   * an Error whose message says why (the vendor refused, the time ran out, the user declined).
   */
  done: Promise<void>;
  /** Ends the flow now (its listener closed); `done` rejects with `reason`. No effect once settled. */
  cancel(reason: string): void;
}

/**
 * The one-flow-per-process rule every {@link SignIn} keeps: `begin` joins the flow in progress (or
 * the one being started) and starts a new one with `start` only when none is live; `current` is
 * the latest, ended or not. A flow stops being live when its `done` settles.
 */
export function oneFlowAtATime(start: () => Promise<SignInFlow>): Pick<SignIn, 'begin' | 'current'> {
  let current: SignInFlow | undefined;
  const live = new WeakSet<SignInFlow>();
  let starting: Promise<SignInFlow> | undefined;
  return {
    current: () => current,
    async begin() {
      if (current && live.has(current)) return { flow: current, fresh: false };
      if (starting) return { flow: await starting, fresh: false };
      starting = start().then((flow) => {
        live.add(flow);
        flow.done.catch(() => {}).finally(() => live.delete(flow));
        return flow;
      });
      try {
        current = await starting;
        return { flow: current, fresh: true };
      } finally {
        starting = undefined;
      }
    },
  };
}

/** A server's browser sign-in (the server's side; see the module comment). */
export interface SignIn {
  /** True while the server has no usable credentials: a call needs a sign-in first. */
  needed(): boolean;
  /**
   * The flow in progress, or a new one: `fresh` says which. Rejects with an Error whose message is
   * for the model when no flow can start (e.g. the loopback port is taken, or sign-in through the
   * client is off in this mode).
   */
  begin(): Promise<{ flow: SignInFlow; fresh: boolean }>;
  /**
   * The latest flow, in progress or ended (its `done` then settled: a late 2026-07-28 retry learns
   * why it ended), or undefined before the first.
   */
  current(): SignInFlow | undefined;
  /** The error text for a client that cannot open URLs: names how to sign in outside the client. */
  cannotAsk(): string;
  /**
   * Why no sign-in through the client is possible in this mode (e.g. a server other machines
   * reach), or undefined: when set, every call that needs a sign-in answers it as an error.
   */
  unavailable?(): string | undefined;
}

/** Outcome of {@link signInCall}: run the handler, or answer with `result` instead. */
export type SignInGate = { proceed: true } | { proceed: false; result: ToolResult | InputRequiredResult };

function canOpenUrls(caps: ClientCapabilities | undefined): boolean {
  const elicitation = caps?.elicitation as Record<string, unknown> | undefined;
  return Boolean(elicitation && typeof elicitation === 'object' && elicitation.url !== undefined);
}

function refused(action: 'decline' | 'cancel'): ToolResult {
  const who = action === 'decline' ? 'The user declined to sign in' : 'The user dismissed the sign-in';
  return errorResult(`${who}. Nothing was done; do not retry unless the user asks for it.`);
}

function failed(error: unknown): ToolResult {
  return errorResult(`Sign-in did not complete: ${(error as Error).message}`);
}

/** Resolves when `flow` completes; rejects with its failure, or with `signal`'s reason when that aborts first. */
function untilDone(flow: SignInFlow, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    flow.done.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Passes the call `ctx` is handling through `signIn` (see the module comment). */
export async function signInCall(
  ctx: ServerContext,
  signIn: SignIn,
  legacyCapabilities: () => ClientCapabilities | undefined,
  progress?: Progress,
): Promise<SignInGate> {
  if (!signIn.needed()) return { proceed: true };
  const off = signIn.unavailable?.();
  if (off) return { proceed: false, result: errorResult(off) };
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const modern = envelope?.[PROTOCOL_VERSION_META_KEY] !== undefined;
  const caps = modern
    ? (envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined)
    : legacyCapabilities();
  if (!canOpenUrls(caps)) return { proceed: false, result: errorResult(signIn.cannotAsk()) };
  const signal = ctx.mcpReq.signal;

  if (modern) {
    const answer = inputResponse(ctx.mcpReq.inputResponses, SIGN_IN_KEY);
    if (answer.kind === 'elicit') {
      const flow = signIn.current();
      if (answer.action !== 'accept') {
        flow?.cancel(`the user chose ${answer.action}`);
        return { proceed: false, result: refused(answer.action) };
      }
      if (!signIn.needed()) return { proceed: true };
      if (!flow)
        return {
          proceed: false,
          result: errorResult(
            'Sign-in did not complete: no sign-in was started for this answer. Call the tool again to start one.',
          ),
        };
      const stop = heartbeat(progress);
      try {
        await untilDone(flow, signal);
      } catch (error) {
        if (signal.aborted) throw error;
        return { proceed: false, result: failed(error) };
      } finally {
        stop();
      }
      return { proceed: true };
    }
    let flow: SignInFlow;
    try {
      ({ flow } = await signIn.begin());
    } catch (error) {
      return { proceed: false, result: failed(error) };
    }
    return {
      proceed: false,
      result: inputRequired({
        inputRequests: { [SIGN_IN_KEY]: inputRequired.elicitUrl({ message: flow.message, url: flow.url }) },
      }),
    };
  }

  let begun: { flow: SignInFlow; fresh: boolean };
  try {
    begun = await signIn.begin();
  } catch (error) {
    return { proceed: false, result: failed(error) };
  }
  const { flow } = begun;
  const elicitationId = randomUUID();
  const stop = heartbeat(progress);
  try {
    return await legacyWait(ctx, flow, begun.fresh, elicitationId);
  } finally {
    stop();
  }
}

/** The 2025-11-25 half of {@link signInCall}: ask (a fresh flow) and wait for the flow. */
async function legacyWait(
  ctx: ServerContext,
  flow: SignInFlow,
  fresh: boolean,
  elicitationId: string,
): Promise<SignInGate> {
  const signal = ctx.mcpReq.signal;
  if (fresh) {
    // The question lasts as long as the flow: it is withdrawn when the flow ends first (timed out).
    const asking = new AbortController();
    const withdraw = () => asking.abort(signal.reason);
    signal.addEventListener('abort', withdraw, { once: true });
    flow.done.catch(() => asking.abort(new Error('the sign-in ended')));
    let answer: ElicitResult;
    try {
      answer = await ctx.mcpReq.elicitInput(
        { mode: 'url', message: flow.message, url: flow.url, elicitationId },
        { signal: asking.signal, timeout: ELICIT_TIMEOUT_MS },
      );
    } catch (error) {
      if (signal.aborted) {
        flow.cancel('the client cancelled the call');
        throw error;
      }
      flow.cancel('the client gave no answer to the sign-in request');
      // Signed in meanwhile (the user went ahead without the client's answer): the call runs.
      return await flow.done.then(
        (): SignInGate => ({ proceed: true }),
        (failure): SignInGate => ({ proceed: false, result: failed(failure) }),
      );
    } finally {
      signal.removeEventListener('abort', withdraw);
    }
    if (answer.action !== 'accept') {
      flow.cancel(`the user chose ${answer.action}`);
      return { proceed: false, result: refused(answer.action) };
    }
  }
  // A call that joined a flow another call started waits for it too.
  try {
    await untilDone(flow, signal);
  } catch (error) {
    if (signal.aborted) throw error;
    return { proceed: false, result: failed(error) };
  }
  if (fresh) {
    await ctx.mcpReq
      .notify({ method: 'notifications/elicitation/complete', params: { elicitationId } })
      .catch(() => {});
  }
  return { proceed: true };
}
