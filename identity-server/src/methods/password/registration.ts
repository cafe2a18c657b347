import { randomUUID } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { ServerContext } from "../../context.ts";
import { ensureCsrf } from "../../selfservice/csrf-check.ts";
import type { Flow } from "../../selfservice/flow.ts";
import { csrfTokenFor } from "../../http/csrf.ts";
import { decodeFlowBody, type FieldSpec } from "../../http/flow-body.ts";
import type { Identity } from "../../identity/identity.ts";
import { uiText } from "../../text/messages.ts";
import { csrfNode, setTraitValues, upsertNode } from "../../ui/nodes.ts";
import { messagesFromAjv, ValidationError } from "../../ui/validation-error.ts";
import { hashPassword } from "./hasher.ts";
import { passwordNode, passwordSubmitNode } from "./nodes.ts";
import { passwordPolicyViolation } from "./policy.ts";
import { passwordPolicyOptions } from "./policy-options.ts";
import { buildIdentity } from "../profile/build-identity.ts";

/** One-step registration's password part: the new-password input and the "Sign up" submit. */
export function populatePasswordRegistration(flow: Flow): void {
  upsertNode(flow.ui, passwordNode("new-password"));
  upsertNode(flow.ui, passwordSubmitNode(1040001));
}

function registrationFields(ctx: ServerContext): FieldSpec[] {
  return [
    { name: "csrf_token", type: "string" },
    { name: "password", type: "string" },
    { name: "method", type: "string" },
    { name: "transient_payload", type: "object" },
    { name: "traits", type: "object" },
    ...ctx.schema.traitPaths.map((p): FieldSpec => ({
      name: p.name,
      type:
        p.type === "boolean"
          ? "boolean"
          : p.type === "number" || p.type === "integer"
            ? "number"
            : "string",
      required: p.required,
    })),
  ];
}

/**
 * The password strategy's registration: validates the payload (traits against the identity schema,
 * password required), checks CSRF, the identifiers and the password policy, and returns the new
 * (not yet stored) identity with its argon2id credential. On failure the flow keeps the submitted
 * traits and gets a fresh CSRF token before the error is thrown.
 */
export async function passwordRegistration(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
  flow: Flow,
): Promise<Identity> {
  let traits: unknown = {};
  try {
    const body = await decodeFlowBody(request, registrationFields(ctx));
    traits = body.traits ?? {};
    const validate = ctx.schema.registrationPayloadValidator;
    if (!validate(body)) throw new ValidationError(messagesFromAjv(validate.errors ?? []));

    ensureCsrf(
      ctx,
      request,
      flow,
      typeof body.csrf_token === "string" ? body.csrf_token : undefined,
    );

    const password = typeof body.password === "string" ? body.password : "";
    if (password === "")
      throw ValidationError.of("password", uiText(4000002, { property: "password" }));

    ctx.schema.validateTraits(traits);
    const derived = ctx.schema.derive(traits);
    if (derived.passwordIdentifiers.length === 0) throw ValidationError.of("", uiText(4000009));
    const options = passwordPolicyOptions(ctx);
    for (const identifier of derived.passwordIdentifiers) {
      const violation = passwordPolicyViolation(password, identifier, options);
      if (violation) throw ValidationError.of("password", violation);
    }

    const now = ctx.now();
    const identity = buildIdentity(ctx, traits as Record<string, unknown>, now);
    identity.credentials.push({
      id: randomUUID(),
      type: "password",
      identifiers: derived.passwordIdentifiers,
      config: { hashed_password: await hashPassword(password) },
      version: 0,
      createdAt: now,
      updatedAt: now,
    });
    return identity;
  } catch (error) {
    setTraitValues(flow.ui, traits);
    if (flow.type === "browser")
      upsertNode(flow.ui, csrfNode(csrfTokenFor(request, reply, ctx.cookies)));
    throw error;
  }
}
