/**
 * Confirmation of destructive calls through form elicitation (MCP spec 2025-11-25, "Elicitation";
 * 2026-07-28, input-required results). A tool that declares `confirm(args)` has the question put to
 * the user before its handler runs, when the client can ask:
 * - 2025-11-25: `elicitation/create` (form mode, no fields: accept, decline or cancel) sent while the
 *   call waits, when the client declared `elicitation` (an empty object or `form`);
 * - 2026-07-28: an input-required result whose `inputRequests.confirm` is that elicitation; the
 *   client retries the call with the user's answer in `inputResponses.confirm`, when the request's
 *   envelope declares the capability.
 * Only an accept runs the handler; decline and cancel answer an error result saying nothing was
 * changed. A client that cannot ask gets today's behaviour (the operator's flags decide), unless the
 * operator passed `--require-confirmation`: then the call is refused.
 */
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
import { errorResult, type ToolResult } from './tool.js';

/** The key of the confirmation in a 2026-07-28 call's `inputRequests`/`inputResponses`. */
export const CONFIRM_KEY = 'confirm';
/** How long the user has to answer a 2025-11-25 elicitation, in milliseconds (then: cancelled). */
export const CONFIRM_TIMEOUT_MS = 10 * 60 * 1000;

/** What to do about confirmation: `ask` when the client can (default); `require`: refuse when it cannot. */
export type ConfirmPolicy = 'ask' | 'require';

/** The elicitation: a message and no fields (the client shows accept / decline / cancel). */
function request(message: string) {
  return { mode: 'form' as const, message, requestedSchema: { type: 'object' as const, properties: {} } };
}

function canAskByForm(caps: ClientCapabilities | undefined): boolean {
  const elicitation = caps?.elicitation as Record<string, unknown> | undefined;
  if (!elicitation || typeof elicitation !== 'object') return false;
  // 2025-11-25: `{}` means form mode (backwards compatibility), else `form` must be declared.
  return Object.keys(elicitation).length === 0 || elicitation.form !== undefined;
}

function refused(question: string, action: 'decline' | 'cancel'): ToolResult {
  const who = action === 'decline' ? 'The user declined' : 'The user dismissed the confirmation';
  return errorResult(`${who} (${question}). Nothing was changed; do not retry unless the user asks for it.`);
}

/**
 * The outcome of asking: `proceed` (run the handler), or a result to answer with instead (a refusal,
 * or, in the 2026-07-28 era, the input-required result that asks).
 */
export type Confirmation = { proceed: true } | { proceed: false; result: ToolResult | InputRequiredResult };

/** Asks the user `question` about the call `ctx` is handling, per `policy` (see the module comment). */
export async function confirmCall(
  ctx: ServerContext,
  question: string,
  policy: ConfirmPolicy,
  legacyCapabilities: () => ClientCapabilities | undefined,
): Promise<Confirmation> {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const modern = envelope?.[PROTOCOL_VERSION_META_KEY] !== undefined;
  const caps = modern
    ? (envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined)
    : legacyCapabilities();
  if (!canAskByForm(caps)) {
    if (policy === 'ask') return { proceed: true };
    return {
      proceed: false,
      result: errorResult(
        `This server requires the user's confirmation of this call (${question}) and this client cannot ask ` +
          '(it declares no form elicitation). Nothing was changed; the operator set --require-confirmation.',
      ),
    };
  }
  if (modern) {
    const answer = inputResponse(ctx.mcpReq.inputResponses, CONFIRM_KEY);
    if (answer.kind === 'elicit') {
      return answer.action === 'accept'
        ? { proceed: true }
        : { proceed: false, result: refused(question, answer.action) };
    }
    return {
      proceed: false,
      result: inputRequired({ inputRequests: { [CONFIRM_KEY]: inputRequired.elicit(request(question)) } }),
    };
  }
  let answer: ElicitResult;
  try {
    answer = await ctx.mcpReq.elicitInput(request(question), {
      signal: ctx.mcpReq.signal,
      timeout: CONFIRM_TIMEOUT_MS,
    });
  } catch (error) {
    if (ctx.mcpReq.signal.aborted) throw error;
    return { proceed: false, result: refused(question, 'cancel') };
  }
  return answer.action === 'accept'
    ? { proceed: true }
    : { proceed: false, result: refused(question, answer.action) };
}
