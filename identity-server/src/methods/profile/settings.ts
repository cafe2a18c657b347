import type { ServerContext } from "../../context.ts";
import type { Flow } from "../../selfservice/flow.ts";
import { ReauthenticationRequired } from "../../selfservice/reauthentication.ts";
import { badRequest } from "../../http/errors.ts";
import { type FieldSpec } from "../../http/flow-body.ts";
import { touchesProtectedFields, withTraits } from "../../identity/apply-traits.ts";
import type { Identity } from "../../identity/identity.ts";
import { isPrivileged } from "../../session/privileged.ts";
import { uiText } from "../../text/messages.ts";
import {
  csrfNode,
  inputNode,
  setNodeValue,
  setTraitValues,
  traitNode,
  upsertNode,
} from "../../ui/nodes.ts";
import { save } from "../settings-outcome.ts";
import type { SettingsStep, SettingsStrategy } from "../settings-strategy.ts";
import { handleSettingsSubmission } from "../settings-submission.ts";
import { methodFields } from "../../selfservice/method-fields.ts";
import { traitFields } from "./trait-fields.ts";

/** The profile group: one input per trait, filled with the identity's values, and "Save". */
function populateProfileSettings(
  ctx: ServerContext,
  flow: Flow,
  identity: Identity,
  csrfToken: string,
): void {
  for (const path of ctx.schema.traitPaths) upsertNode(flow.ui, traitNode(path, "profile"));
  upsertNode(flow.ui, csrfNode(csrfToken));
  setTraitValues(flow.ui, identity.traits);
  flow.ui.nodes.push(
    inputNode({
      name: "method",
      type: "submit",
      group: "profile",
      value: "profile",
      label: uiText(1070003),
    }),
  );
}

function profileFields(ctx: ServerContext): readonly FieldSpec[] {
  return methodFields({}, traitFields(ctx.schema.traitPaths, false));
}

/** Shows what was submitted instead of the stored values (Kratos' hydrateForm). */
function showSubmittedTraits(flow: Flow, traits: unknown): void {
  for (const node of flow.ui.nodes) {
    if (node.type === "input" && node.attributes.name.startsWith("traits.")) {
      setNodeValue(node, undefined);
    }
  }
  setTraitValues(flow.ui, traits);
}

/**
 * The profile strategy's settings update: CSRF, then the submitted traits are validated against
 * the identity schema; a change that touches identifiers or addresses needs a privileged session.
 * Returns the identity to save (not yet saved).
 */
async function profileSettingsUpdate(step: SettingsStep): Promise<Identity> {
  const { ctx, flow, session, identity } = step;
  let traits: unknown;
  return handleSettingsSubmission(step, profileFields(ctx), (body) => {
    traits = body.traits;
    if (
      traits === null ||
      typeof traits !== "object" ||
      Array.isArray(traits) ||
      Object.keys(traits).length === 0
    ) {
      throw badRequest("Did not receive any value changes.");
    }
    showSubmittedTraits(flow, traits);
    ctx.schema.validateTraits(traits);
    const updated = withTraits(ctx.schema, identity, traits as Record<string, unknown>, ctx.now());
    if (touchesProtectedFields(identity, updated) && !isPrivileged(ctx, session)) {
      throw new ReauthenticationRequired();
    }
    return updated;
  });
}

/** The profile group of the settings form: the identity's traits. */
export const profileSettingsStrategy: SettingsStrategy = {
  id: "profile",
  group: "profile",
  selectorFields: [],
  responsible: (values) => values.method === "profile",
  populate: ({ ctx, flow, identity, csrfToken }) =>
    populateProfileSettings(ctx, flow, identity, csrfToken),
  update: async (step) => save(await profileSettingsUpdate(step)),
};
