import type { ServerContext } from "../../context.ts";
import type { Flow } from "../../selfservice/flow.ts";
import type { VerifiableAddress } from "../../identity/identity.ts";
import { normalizeAddress, normalizeEmail } from "../../identity/normalize.ts";
import {
  findIdentity,
  findIdentityIdByRecoveryAddress,
  findIdentityIdByVerifiableAddress,
  updateVerifiableAddress,
} from "../../store/identities.ts";
import type { CodeRequester } from "../../rate-limit/code-requester.ts";
import { takeCodeSend, tryCodeSend } from "../../rate-limit/rate-limits.ts";
import type { Executor } from "../../store/schema.ts";
import { asLocale } from "../../text/locale.ts";
import { generateCode, hmacCode } from "./one-time-code.ts";
import { storeSentCode } from "./store-sent-code.ts";

/** Kratos' hackyInferChannel: an address with "@" is an e-mail, anything else a phone number. */
export function channelOf(address: string): "email" | "sms" {
  return address.includes("@") ? "email" : "sms";
}

function expiresInMinutes(ctx: ServerContext): number {
  return Math.floor(ctx.config.codeLifespanMs / 60_000);
}

/**
 * Sends a recovery code if the e-mail address is a known recovery address. An unknown address gets
 * Kratos' "recovery_code_invalid" message instead (notify_unknown_recipients), so both paths store
 * and deliver one message: the same database writes and the same courier work after the answer,
 * which otherwise told by its timing whether the address has an account (issue 12). The caller
 * answers both alike. Returns whether a code was sent.
 */
export async function sendRecoveryCode(
  db: Executor,
  ctx: ServerContext,
  requester: CodeRequester,
  flow: Flow,
  email: string,
): Promise<boolean> {
  const value = normalizeEmail(email);
  const identityId = await findIdentityIdByRecoveryAddress(db, "email", value);
  // Counted for unknown addresses exactly like known ones (a stranger's budgets do not depend on
  // the look-up); only the account's own browser or session gets a budget of its own.
  takeCodeSend(ctx, { address: value, ip: requester.ip, own: requester.ownBudgetFor(identityId) });
  if (!identityId) {
    ctx.logger.info(
      { flow_id: flow.id, via: "email" },
      "Account recovery was requested for an unknown address.",
    );
    if (ctx.config.recoveryNotifiesUnknownRecipients) {
      // A code is drawn and hashed as for a known address, then dropped: equal work up to here.
      hmacCode(ctx.secret, generateCode());
      await ctx.courier.queue(db, {
        channel: "email",
        recipient: value,
        templateType: "recovery_code_invalid",
        locale: asLocale(flow.locale),
        data: {},
      });
    }
    return false;
  }
  const code = generateCode();
  const now = ctx.now();
  await storeSentCode(db, ctx, {
    flowId: flow.id,
    kind: "recovery",
    identityId,
    address: value,
    channel: "email",
    code,
    issuedAt: now,
  });
  await ctx.courier.queue(db, {
    channel: "email",
    recipient: value,
    templateType: "recovery_code_valid",
    locale: asLocale(flow.locale),
    data: { code, expiresInMinutes: expiresInMinutes(ctx) },
  });
  return true;
}

/**
 * Sends a verification code for one of an identity's addresses without being asked (the
 * verification hook after registration or a changed address). It counts like any send (the
 * address's or the requester's own budget, and the IP's); when one is used up nothing is sent (the
 * address stays as it is) instead of failing the registration or settings change, and the user can
 * ask for a code later.
 */
export async function sendVerificationCodeTo(
  db: Executor,
  ctx: ServerContext,
  requester: CodeRequester,
  flow: Flow,
  identityId: string,
  address: VerifiableAddress,
): Promise<void> {
  const send = {
    address: address.value,
    ip: requester.ip,
    own: requester.ownBudgetFor(identityId),
  };
  if (!tryCodeSend(ctx, send)) {
    ctx.logger.info(
      { flow_id: flow.id, via: address.via },
      "No verification code was sent: the address has had too many codes for now.",
    );
    return;
  }
  await deliverVerificationCode(db, ctx, flow, identityId, address);
}

/**
 * Sends a verification code for one of an identity's addresses: e-mail by e-mail (with a link that
 * fills the code in), phone numbers by text message. The address moves from "pending" to "sent";
 * an address that is verified already keeps its "completed" state.
 */
async function deliverVerificationCode(
  db: Executor,
  ctx: ServerContext,
  flow: Flow,
  identityId: string,
  address: VerifiableAddress,
): Promise<void> {
  const code = generateCode();
  const now = ctx.now();
  await storeSentCode(db, ctx, {
    flowId: flow.id,
    kind: "verification",
    identityId,
    address: address.value,
    channel: address.via,
    code,
    issuedAt: now,
  });
  const link = new URL(`${ctx.config.publicBaseUrl}/self-service/verification`);
  link.searchParams.set("code", code);
  link.searchParams.set("flow", flow.id);
  await ctx.courier.queue(db, {
    channel: address.via,
    recipient: address.value,
    templateType: "verification_code_valid",
    locale: asLocale(flow.locale),
    data: {
      code,
      expiresInMinutes: expiresInMinutes(ctx),
      ...(address.via === "email" ? { verificationUrl: link.toString() } : {}),
    },
  });
  if (!address.verified) {
    address.status = "sent";
    address.updatedAt = now;
    await updateVerifiableAddress(db, address);
  }
}

/**
 * Verification by address: sends a code when the address belongs to an identity, and silently does
 * nothing otherwise (Kratos answers the same either way). Returns whether a code was sent.
 */
export async function sendVerificationCodeFor(
  db: Executor,
  ctx: ServerContext,
  requester: CodeRequester,
  flow: Flow,
  submitted: string,
): Promise<boolean> {
  const via = channelOf(submitted);
  const value = normalizeAddress(submitted, via);
  const ownerId = await findIdentityIdByVerifiableAddress(db, via, value);
  // As for recovery: unknown addresses count exactly like known ones.
  takeCodeSend(ctx, { address: value, ip: requester.ip, own: requester.ownBudgetFor(ownerId) });
  const identity = ownerId ? await findIdentity(db, ownerId) : undefined;
  const address = identity?.verifiableAddresses.find((a) => a.via === via && a.value === value);
  if (!identity || !address) {
    ctx.logger.info(
      { flow_id: flow.id, via },
      "Address verification was requested for an unknown address.",
    );
    return false;
  }
  await deliverVerificationCode(db, ctx, flow, identity.id, address);
  return true;
}
