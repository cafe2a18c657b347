import { randomUUID } from "node:crypto";
import type { ServerContext } from "../../context.ts";
import type { Flow } from "../../selfservice/flow.ts";
import { internalError } from "../../http/errors.ts";
import type { Identity } from "../../identity/identity.ts";
import { claimTotpStep } from "../../store/totp-steps.ts";
import { uiText } from "../../text/messages.ts";
import { csrfNode, findInput, setNodeValue, upsertNode } from "../../ui/nodes.ts";
import { ValidationError } from "../../ui/validation-error.ts";
import { save, saveWithoutSecondFactor, type SettingsOutcome } from "../settings-outcome.ts";
import type { SettingsStep, SettingsStrategy } from "../settings-strategy.ts";
import {
  handleSettingsSubmission,
  recordSecondFactorProof,
  requirePrivilegedSession,
} from "../settings-submission.ts";
import { matchingTotpStep, newTotpKey, totpQrDataUrl } from "./totp-key.ts";
import { totpUrlOf } from "../../identity/totp-url.ts";
import {
  totpQrNode,
  totpSaveNode,
  totpSecretNode,
  totpUnlinkNode,
  totpVerifyNode,
} from "./totp-nodes.ts";
import { methodFields } from "../../selfservice/method-fields.ts";

/** Where the key waiting for its first code is kept (never serialised). */
const keyContextKey = "totp_url";

const totpSettingsFields = methodFields({
  totp_code: "string",
  totp_unlink: "boolean",
});

/**
 * The totp group: an unlink button when an app is linked; otherwise a new key (kept in the flow's
 * internal context until a code confirms it) as QR code and text, the code input and "Save".
 */
async function populateTotpSettings(
  ctx: ServerContext,
  flow: Flow,
  identity: Identity,
  csrfToken: string,
): Promise<void> {
  upsertNode(flow.ui, csrfNode(csrfToken));
  delete flow.internalContext[keyContextKey];
  if (totpUrlOf(identity)) {
    flow.ui.nodes.push(totpUnlinkNode());
    return;
  }
  const account = ctx.schema.derive(identity.traits).totpAccountName ?? identity.id;
  const key = newTotpKey(ctx.config.secondFactor.totpIssuer, account);
  flow.internalContext[keyContextKey] = key.url;
  upsertNode(flow.ui, totpQrNode(await totpQrDataUrl(key.url)));
  upsertNode(flow.ui, totpSecretNode(key.secret));
  upsertNode(flow.ui, totpVerifyNode());
  flow.ui.nodes.push(totpSaveNode());
}

function withoutTotp(identity: Identity, now: Date): Identity {
  return {
    ...identity,
    updatedAt: now,
    credentials: identity.credentials.filter((c) => c.type !== "totp"),
  };
}

/**
 * Kratos' totp settings strategy: CSRF, a privileged session, then either unlink the app (which
 * also forgets every trusted device) or link the key from the flow once its code is right. Linking
 * proves the second factor, so the current session gains a `totp` aal2 entry; the code's step is
 * recorded so it cannot sign in again.
 */
async function totpSettingsUpdate(step: SettingsStep): Promise<SettingsOutcome> {
  const { ctx, flow, session, identity } = step;
  try {
    return await handleSettingsSubmission(step, totpSettingsFields, (body) => {
      requirePrivilegedSession(ctx, session);
      const now = ctx.now();

      if (totpUrlOf(identity)) {
        if (body.totp_unlink !== true) return save(identity);
        return saveWithoutSecondFactor(withoutTotp(identity, now));
      }

      const url = flow.internalContext[keyContextKey];
      if (typeof url !== "string") {
        throw internalError("Could not find the TOTP key in the internal context.");
      }
      const code = typeof body.totp_code === "string" ? body.totp_code.trim() : "";
      if (code === "") {
        throw ValidationError.of("totp_code", uiText(4000002, { property: "totp_code" }));
      }
      const step = matchingTotpStep(url, code, now);
      if (step === undefined) throw ValidationError.of("totp_code", uiText(4000008));

      delete flow.internalContext[keyContextKey];
      const updated: Identity = {
        ...withoutTotp(identity, now),
        credentials: [
          ...identity.credentials.filter((c) => c.type !== "totp"),
          {
            id: randomUUID(),
            type: "totp",
            // Kratos identifies the credential by the identity id; the key is not an identifier.
            identifiers: [identity.id],
            config: { totp_url: url },
            version: 0,
            createdAt: now,
            updatedAt: now,
          },
        ],
      };
      return save(updated, async (db) => {
        await recordSecondFactorProof(db, session, "totp", now);
        await claimTotpStep(db, identity.id, step, now);
      });
    });
  } catch (error) {
    const codeNode = findInput(flow.ui, "totp_code");
    if (codeNode) setNodeValue(codeNode, undefined);
    throw error;
  }
}

/** The authenticator app group of the settings form: link a new key or unlink the app. */
export const totpSettingsStrategy: SettingsStrategy = {
  id: "totp",
  group: "totp",
  selectorFields: totpSettingsFields,
  responsible: (values) => values.method === "totp" || values.totp_unlink === true,
  populate: ({ ctx, flow, identity, csrfToken }) =>
    populateTotpSettings(ctx, flow, identity, csrfToken),
  update: totpSettingsUpdate,
};
