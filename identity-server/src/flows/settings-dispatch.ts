import type { FastifyReply, FastifyRequest } from "fastify";
import type { ServerContext } from "../context.ts";
import { decodeFlowBody } from "../http/flow-body.ts";
import {
  codeMfaSettingsFields,
  codeMfaSettingsUpdate,
  isCodeMfaSubmission,
} from "../methods/code/mfa-settings.ts";
import {
  isLookupSubmission,
  lookupSettingsFields,
  lookupSettingsUpdate,
} from "../methods/lookup/lookup-settings.ts";
import { passwordSettingsUpdate } from "../methods/password/settings.ts";
import { profileSettingsUpdate } from "../methods/profile/settings.ts";
import { save, type SettingsOutcome } from "../methods/settings-outcome.ts";
import { totpSettingsFields, totpSettingsUpdate } from "../methods/totp/totp-settings.ts";
import type { ActiveSession } from "../session/session-manager.ts";
import { uiText } from "../text/messages.ts";
import {
  isUntrustSubmission,
  untrustDeviceUpdate,
  untrustFields,
} from "../trusted-devices/trusted-devices-settings.ts";
import { ValidationError } from "../ui/validation-error.ts";
import type { Flow } from "./flow.ts";

/** Every field some settings strategy reads; enough to tell which one is responsible. */
const selectorFields = [
  ...lookupSettingsFields,
  ...totpSettingsFields,
  ...codeMfaSettingsFields,
  ...untrustFields,
].filter((field, index, all) => all.findIndex((f) => f.name === field.name) === index);

export type SettingsSubmission =
  "profile" | "password" | "totp" | "lookup_secret" | "code" | "trusted_device" | undefined;

/**
 * Which strategy a submission is for, in Kratos' way: backup-code buttons, `totp_unlink` and our
 * `totp_device_untrust` are recognised by their own fields; everything else by `method`.
 */
export async function settingsSubmissionOf(request: FastifyRequest): Promise<SettingsSubmission> {
  const body = await decodeFlowBody(request, selectorFields);
  if (isLookupSubmission(body)) return "lookup_secret";
  if (isUntrustSubmission(body)) return "trusted_device";
  if (body.method === "totp" || body.totp_unlink === true) return "totp";
  if (isCodeMfaSubmission(body)) return "code";
  if (body.method === "profile" || body.method === "password") return body.method;
  return undefined;
}

/** Runs the strategy responsible for the submission; none responsible is 4010004. */
export async function runSettingsStrategy(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
  flow: Flow,
  active: ActiveSession,
  submission: SettingsSubmission,
): Promise<SettingsOutcome> {
  const { session, identity } = active;
  switch (submission) {
    case "profile":
      return save(await profileSettingsUpdate(ctx, request, reply, flow, session, identity));
    case "password":
      return save(await passwordSettingsUpdate(ctx, request, reply, flow, session, identity));
    case "totp":
      return totpSettingsUpdate(ctx, request, reply, flow, session, identity);
    case "lookup_secret":
      return lookupSettingsUpdate(ctx, request, reply, flow, session, identity);
    case "code":
      return codeMfaSettingsUpdate(ctx, request, reply, flow, session, identity);
    case "trusted_device":
      // Ours: in strict mode no strategy knows the field, as in Kratos.
      if (!ctx.config.oryExtensions) throw ValidationError.of("", uiText(4010004));
      return untrustDeviceUpdate(ctx, request, reply, flow, identity);
    case undefined:
      throw ValidationError.of("", uiText(4010004));
  }
}
