import type { ServerContext } from "../../context.ts";
import type { Flow } from "../../selfservice/flow.ts";
import { badRequest, type HerodotError } from "../../http/errors.ts";
import { codesOfFlow, consumeCode, type CodeKind, type StoredCode } from "../../store/codes.ts";
import { incrementSubmitCount } from "../../store/flows.ts";
import { hmacCode, sameHmac } from "./one-time-code.ts";

/** No code of the flow matches, or the matching one expired (Kratos' ErrCodeNotFound). */
export class CodeNotFoundError extends Error {
  constructor() {
    super("unknown code");
    this.name = "CodeNotFoundError";
  }
}

const codeSubmittedTooOften = (): HerodotError =>
  badRequest("The request was submitted too often. Please request another code.");

const codeAlreadyUsed = (): HerodotError =>
  badRequest("The code was already used. Please request another code.");

/**
 * Kratos' useOneTimeCode: every submission is counted on the flow first (so guesses are limited for
 * the flow's whole life, resends included), then the code is looked up by its HMAC among the flow's
 * codes, checked for expiry and use, and consumed atomically.
 */
export async function useOneTimeCode(
  ctx: ServerContext,
  flow: Flow,
  kind: CodeKind,
  submitted: string,
): Promise<StoredCode> {
  flow.submitCount = await incrementSubmitCount(ctx.db, flow.id);
  if (flow.submitCount > ctx.config.codeMaxSubmissions) throw codeSubmittedTooOften();

  // A code sent before a secret rotation is an HMAC under an older secret: every one is tried.
  const hmacs = ctx.secrets.map((secret) => hmacCode(secret, submitted));
  const codes = await codesOfFlow(ctx.db, flow.id, kind);
  const match = codes.find((code) => hmacs.some((hmac) => sameHmac(code.hmac, hmac)));
  const now = ctx.now();
  if (!match || match.expiresAt < now) throw new CodeNotFoundError();
  if (match.usedAt) throw codeAlreadyUsed();
  if (!(await consumeCode(ctx.db, match.id, now))) throw codeAlreadyUsed();
  return match;
}
