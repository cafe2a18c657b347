import { randomUUID } from "node:crypto";
import type { ServerContext } from "../../context.ts";
import type { Flow } from "../../selfservice/flow.ts";
import { badRequest } from "../../http/errors.ts";
import type { Identity } from "../../identity/identity.ts";
import type { Session } from "../../session/session.ts";
import { deleteTrustedDevicesOf } from "../../store/trusted-devices.ts";
import { csrfNode, removeNodes, upsertNode } from "../../ui/nodes.ts";
import { save, saveWithoutSecondFactor, type SettingsOutcome } from "../settings-outcome.ts";
import type { SettingsStep, SettingsStrategy } from "../settings-strategy.ts";
import {
  handleSettingsSubmission,
  recordSecondFactorProof,
  requirePrivilegedSession,
} from "../settings-submission.ts";
import {
  generateLookupCodes,
  hashLookupCode,
  lookupCodeCount,
  lookupCodesOf,
} from "./lookup-codes.ts";
import {
  confirmLookupNode,
  disableLookupNode,
  listStoredCodes,
  lookupCodesNode,
  lookupSettingsNodeIds,
  regenerateLookupNode,
  revealLookupNode,
} from "./lookup-nodes.ts";
import { methodFields } from "../../selfservice/method-fields.ts";

/** The HMACs of codes generated but not confirmed yet (the codes themselves are only shown). */
const regeneratedContextKey = "lookup_secret_regenerated";

const lookupSettingsFields = methodFields({
  lookup_secret_reveal: "boolean",
  lookup_secret_regenerate: "boolean",
  lookup_secret_confirm: "boolean",
  lookup_secret_disable: "boolean",
});

/** Kratos recognises backup-code submissions by their buttons, without `method`. */
function isLookupSubmission(body: Record<string, unknown>): boolean {
  return (
    body.lookup_secret_reveal === true ||
    body.lookup_secret_regenerate === true ||
    body.lookup_secret_confirm === true ||
    body.lookup_secret_disable === true
  );
}

/** The lookup_secret group: reveal and disable when codes exist, otherwise "generate". */
function populateLookupSettings(flow: Flow, identity: Identity, csrfToken: string): void {
  upsertNode(flow.ui, csrfNode(csrfToken));
  delete flow.internalContext[regeneratedContextKey];
  if (lookupCodesOf(identity).length > 0) {
    upsertNode(flow.ui, revealLookupNode());
    upsertNode(flow.ui, disableLookupNode());
  } else {
    upsertNode(flow.ui, regenerateLookupNode());
  }
}

function withoutLookup(identity: Identity, now: Date): Identity {
  return {
    ...identity,
    updatedAt: now,
    credentials: identity.credentials.filter((c) => c.type !== "lookup_secret"),
  };
}

/** Confirm: the generated codes become the identity's backup codes. */
function confirm(ctx: ServerContext, flow: Flow, session: Session, identity: Identity) {
  const hashes = flow.internalContext[regeneratedContextKey];
  if (!Array.isArray(hashes) || hashes.length !== lookupCodeCount) {
    throw badRequest("You must (re-)generate recovery backup codes before you can save them.");
  }
  delete flow.internalContext[regeneratedContextKey];
  const now = ctx.now();
  const updated: Identity = {
    ...withoutLookup(identity, now),
    credentials: [
      ...identity.credentials.filter((c) => c.type !== "lookup_secret"),
      {
        id: randomUUID(),
        type: "lookup_secret",
        identifiers: [identity.id],
        config: { recovery_codes: hashes.map((code) => ({ code: String(code), used_at: null })) },
        version: 0,
        createdAt: now,
        updatedAt: now,
      },
    ],
  };
  return save(updated, async (db) => {
    // Saving the codes proves the user holds them, as Kratos counts it.
    await recordSecondFactorProof(db, session, "lookup_secret", now);
    // New codes replace a factor: browsers trusted under the old ones must prove themselves again.
    await deleteTrustedDevicesOf(db, identity.id);
  });
}

/**
 * Kratos' lookup settings strategy, in its order: confirm, reveal, disable, regenerate. All need
 * CSRF and a privileged session. Reveal and regenerate only change the form (answered as it is);
 * confirm and disable change the identity.
 */
async function lookupSettingsUpdate(step: SettingsStep): Promise<SettingsOutcome> {
  const { ctx, flow, session, identity } = step;
  return handleSettingsSubmission(step, lookupSettingsFields, (body) => {
    requirePrivilegedSession(ctx, session);

    if (body.lookup_secret_confirm === true) return confirm(ctx, flow, session, identity);

    if (body.lookup_secret_reveal === true) {
      const stored = lookupCodesOf(identity);
      if (stored.length === 0) {
        throw badRequest("Can not reveal lookup codes because you have none.");
      }
      removeNodes(flow.ui, lookupSettingsNodeIds);
      upsertNode(flow.ui, lookupCodesNode(listStoredCodes(stored)));
      upsertNode(flow.ui, disableLookupNode());
      upsertNode(flow.ui, regenerateLookupNode());
      return { kind: "show-form" };
    }

    if (body.lookup_secret_disable === true) {
      return saveWithoutSecondFactor(withoutLookup(identity, ctx.now()));
    }

    const codes = generateLookupCodes();
    removeNodes(flow.ui, lookupSettingsNodeIds);
    upsertNode(flow.ui, lookupCodesNode(codes.map((code) => ({ code }))));
    upsertNode(flow.ui, confirmLookupNode());
    flow.internalContext[regeneratedContextKey] = codes.map((code) =>
      hashLookupCode(ctx.secret, code),
    );
    return { kind: "show-form" };
  });
}

/** The backup codes group of the settings form, recognised by its buttons. */
export const lookupSettingsStrategy: SettingsStrategy = {
  id: "lookup_secret",
  group: "lookup_secret",
  selectorFields: lookupSettingsFields,
  responsible: isLookupSubmission,
  populate: ({ flow, identity, csrfToken }) => populateLookupSettings(flow, identity, csrfToken),
  update: lookupSettingsUpdate,
};
