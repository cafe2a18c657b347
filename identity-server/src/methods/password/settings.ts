import { randomUUID } from "node:crypto";
import type { Flow } from "../../selfservice/flow.ts";
import type { Identity } from "../../identity/identity.ts";
import { uiText } from "../../text/messages.ts";
import { csrfNode, upsertNode } from "../../ui/nodes.ts";
import { ValidationError } from "../../ui/validation-error.ts";
import { save } from "../settings-outcome.ts";
import type { SettingsStep, SettingsStrategy } from "../settings-strategy.ts";
import { handleSettingsSubmission, requirePrivilegedSession } from "../settings-submission.ts";
import { hashPassword, verifyPassword } from "./hasher.ts";
import { passwordNode, passwordSubmitNode } from "./nodes.ts";
import { passwordPolicyViolation } from "./policy.ts";
import { passwordPolicyOptions } from "./policy-options.ts";
import { methodFields } from "../../selfservice/method-fields.ts";

const passwordFields = methodFields({
  password: "string",
});

/** The password group: a new password and "Save" (1070003). */
function populatePasswordSettings(flow: Flow, csrfToken: string): void {
  upsertNode(flow.ui, csrfNode(csrfToken));
  upsertNode(flow.ui, passwordNode("new-password"));
  flow.ui.nodes.push(passwordSubmitNode(1070003));
}

/**
 * The password strategy's settings update, in Kratos' order: CSRF, privileged session, password
 * present, not the current password (4000039), password policy. Returns the identity to save.
 */
async function passwordSettingsUpdate(step: SettingsStep): Promise<Identity> {
  const { ctx, session, identity } = step;
  return handleSettingsSubmission(step, passwordFields, async (body) => {
    requirePrivilegedSession(ctx, session);
    const password = typeof body.password === "string" ? body.password : "";
    if (password === "") {
      throw ValidationError.of("password", uiText(4000002, { property: "password" }));
    }
    const current = identity.credentials.find((c) => c.type === "password");
    const currentHash = current?.config.hashed_password;
    if (typeof currentHash === "string" && (await verifyPassword(password, currentHash))) {
      throw ValidationError.of("password", uiText(4000039));
    }
    const identifiers = ctx.schema.derive(identity.traits).passwordIdentifiers;
    const options = passwordPolicyOptions(ctx);
    for (const identifier of identifiers.length > 0 ? identifiers : [""]) {
      const violation = passwordPolicyViolation(password, identifier, options);
      if (violation) throw ValidationError.of("password", violation);
    }
    const now = ctx.now();
    const credential = {
      id: current?.id ?? randomUUID(),
      type: "password",
      identifiers,
      config: { hashed_password: await hashPassword(password) },
      version: current?.version ?? 0,
      createdAt: current?.createdAt ?? now,
      updatedAt: now,
    };
    return {
      ...identity,
      updatedAt: now,
      credentials: [...identity.credentials.filter((c) => c.type !== "password"), credential],
    };
  });
}

/** The password group of the settings form: a new password. */
export const passwordSettingsStrategy: SettingsStrategy = {
  id: "password",
  group: "password",
  selectorFields: [],
  responsible: (values) => values.method === "password",
  populate: ({ flow, csrfToken }) => populatePasswordSettings(flow, csrfToken),
  update: async (step) => save(await passwordSettingsUpdate(step)),
};
