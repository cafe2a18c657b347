import { randomUUID } from "node:crypto";
import type { ServerContext } from "../../context.ts";
import type { Flow } from "../../selfservice/flow.ts";
import { badRequest } from "../../http/errors.ts";
import type { Identity, VerifiableAddress } from "../../identity/identity.ts";
import { codeMfaAddressesOf, type CodeMfaAddress } from "./mfa-addresses.ts";
import { uiText } from "../../text/messages.ts";
import { csrfNode, inputNode, upsertNode, type UiNode } from "../../ui/nodes.ts";
import { ValidationError } from "../../ui/validation-error.ts";
import { save, saveWithoutSecondFactor, type SettingsOutcome } from "../settings-outcome.ts";
import type { SettingsStep, SettingsStrategy } from "../settings-strategy.ts";
import { handleSettingsSubmission, requirePrivilegedSession } from "../settings-submission.ts";
import { methodFields } from "../../selfservice/method-fields.ts";

// Our settings group `code`: Kratos turns codes as a second factor on for every address in the
// traits by configuration (code.mfa_enabled); here each user picks which verified addresses get
// sign-in codes. The credential keeps Kratos' shape: type `code`, config {addresses:[{address,
// channel}]}.

const codeMfaSettingsFields = methodFields({
  code_mfa_enable: "string",
  code_mfa_disable: "string",
});

function isCodeMfaSubmission(body: Record<string, unknown>): boolean {
  return (
    body.method === "code" ||
    typeof body.code_mfa_enable === "string" ||
    typeof body.code_mfa_disable === "string"
  );
}

function toggleNode(name: "code_mfa_enable" | "code_mfa_disable", address: VerifiableAddress) {
  const labelId = name === "code_mfa_enable" ? 9010002 : 9010003;
  return inputNode({
    name,
    type: "submit",
    group: "code",
    value: address.value,
    label: uiText(
      labelId,
      { address: address.value },
      { address: address.value, channel: address.via },
    ),
  });
}

/**
 * The code group: per verified address, "Use codes sent to … as a second factor"
 * (`code_mfa_enable`, 9010002) or, once on, "Stop using codes sent to …" (`code_mfa_disable`,
 * 9010003). Nothing without a verified address or with code MFA switched off.
 */
function populateCodeMfaSettings(
  ctx: ServerContext,
  flow: Flow,
  identity: Identity,
  csrfToken: string,
): void {
  if (!ctx.config.secondFactor.codeMfaEnabled) return;
  const verified = identity.verifiableAddresses.filter((a) => a.verified);
  if (verified.length === 0) return;
  const enabled = codeMfaAddressesOf(identity);
  upsertNode(flow.ui, csrfNode(csrfToken));
  const nodes: UiNode[] = verified.map((address) =>
    toggleNode(
      enabled.some((e) => e.address === address.value && e.channel === address.via)
        ? "code_mfa_disable"
        : "code_mfa_enable",
      address,
    ),
  );
  flow.ui.nodes.push(...nodes);
}

function withAddresses(identity: Identity, addresses: CodeMfaAddress[], now: Date): Identity {
  const others = identity.credentials.filter((c) => c.type !== "code");
  if (addresses.length === 0) return { ...identity, updatedAt: now, credentials: others };
  const current = identity.credentials.find((c) => c.type === "code");
  return {
    ...identity,
    updatedAt: now,
    credentials: [
      ...others,
      {
        id: current?.id ?? randomUUID(),
        type: "code",
        // The identity id, not the addresses: addresses move between identities, ids do not.
        identifiers: [identity.id],
        config: { addresses },
        version: current?.version ?? 0,
        createdAt: current?.createdAt ?? now,
        updatedAt: now,
      },
    ],
  };
}

/**
 * Turns codes to one verified address on or off as a second factor. Needs CSRF and a privileged
 * session; turning one off also forgets every trusted device, as removing any factor does.
 */
async function codeMfaSettingsUpdate(step: SettingsStep): Promise<SettingsOutcome> {
  const { ctx, session, identity } = step;
  return handleSettingsSubmission(step, codeMfaSettingsFields, (body) => {
    const enable = typeof body.code_mfa_enable === "string" ? body.code_mfa_enable : undefined;
    const disable = typeof body.code_mfa_disable === "string" ? body.code_mfa_disable : undefined;
    if (!ctx.config.secondFactor.codeMfaEnabled || (enable ?? disable) === undefined) {
      throw ValidationError.of("", uiText(4010004));
    }
    requirePrivilegedSession(ctx, session);
    const wanted = (enable ?? disable ?? "").trim().toLowerCase();
    const address = identity.verifiableAddresses.find(
      (a) => a.verified && a.value.toLowerCase() === wanted,
    );
    if (!address) throw badRequest("Codes can only be sent to a verified address of this account.");

    const now = ctx.now();
    const current = codeMfaAddressesOf(identity).filter(
      (a) => !(a.address === address.value && a.channel === address.via),
    );
    if (enable !== undefined) {
      return save(
        withAddresses(
          identity,
          [...current, { address: address.value, channel: address.via }],
          now,
        ),
      );
    }
    return saveWithoutSecondFactor(withAddresses(identity, current, now));
  });
}

/** Our code group of the settings form: which verified addresses get sign-in codes. */
export const codeSettingsStrategy: SettingsStrategy = {
  id: "code",
  group: "code",
  selectorFields: codeMfaSettingsFields,
  responsible: isCodeMfaSubmission,
  populate: ({ ctx, flow, identity, csrfToken }) =>
    populateCodeMfaSettings(ctx, flow, identity, csrfToken),
  update: codeMfaSettingsUpdate,
};
