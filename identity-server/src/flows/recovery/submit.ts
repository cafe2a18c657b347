import type { FastifyReply, FastifyRequest } from "fastify";
import type { ServerContext } from "../../context.ts";
import { markVerified } from "../../identity/verified-address.ts";
import {
  replacementCodeFlow,
  sendFlowCode,
  submitCodeFlow,
  type CodeFlowStrategy,
} from "../code-flow.ts";
import { isJsonRequest } from "../../http/content-negotiation.ts";
import { csrfTokenForFlowType } from "../../http/csrf.ts";
import { HerodotError } from "../../http/errors.ts";
import type { FlowBody } from "../../http/flow-body.ts";
import type { Identity, VerifiableAddress } from "../../identity/identity.ts";
import {
  restoreRecoveryAddressInput,
  showRecoveryAddressForm,
  showRecoveryCodeForm,
} from "../../methods/code/recovery-nodes.ts";
import { sendRecoveryCode } from "../../methods/code/send-code.ts";
import { CodeNotFoundError, useOneTimeCode } from "../../methods/code/use-code.ts";
import { fetchSession } from "../../session/session-manager.ts";
import { type StoredCode } from "../../store/codes.ts";
import { updateFlow } from "../../store/flows.ts";
import { findIdentity } from "../../store/identities.ts";
import { uiText, type UiText } from "../../text/messages.ts";
import { ValidationError } from "../../ui/validation-error.ts";
import { alreadyLoggedInForRecovery } from "../already-logged-in.ts";
import { ensureCsrf } from "../../selfservice/csrf-check.ts";
import { sendError } from "../../http/send-error.ts";
import { flowFetchUrl, uiUrl } from "../flow-errors.ts";
import { flowJson, type Flow, type FlowType } from "../../selfservice/flow.ts";
import { skipsCsrf } from "./flow.ts";
import { recoveryFlows } from "./flow.ts";
import { completeRecovery } from "./success.ts";
import { methodFields } from "../../selfservice/method-fields.ts";

const recoveryFields = methodFields({
  code: "string",
  email: "string",
  token: "string",
});

interface RecoveryBody {
  method: string | undefined;
  code: string;
  email: string;
  token: string;
  csrfToken: string | undefined;
  transientPayload: Record<string, unknown>;
}

function decodeRecoveryBody(submitted: FlowBody): RecoveryBody {
  const body = submitted.fields(recoveryFields);
  const text = (key: string) => (typeof body[key] === "string" ? body[key] : "");
  return {
    method: text("method") || undefined,
    code: text("code"),
    email: text("email"),
    token: text("token"),
    csrfToken: text("csrf_token") || undefined,
    transientPayload: (body.transient_payload ?? {}) as Record<string, unknown>,
  };
}

/** A step went through: browsers see the recovery UI again, JSON and API clients get the flow. */
function answerStep(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
  flow: Flow,
): FastifyReply {
  if (flow.type === "browser" && !isJsonRequest(request)) {
    return reply.redirect(uiUrl(ctx, "/recovery", flow.id), 303);
  }
  return reply.send(flowJson(flow));
}

/**
 * Kratos' retryRecoveryFlow: the flow cannot go on, so a fresh one carries the message (or the
 * error, if it can be shown in a form) and the client is sent to it: JSON clients by a 303 to
 * `/self-service/recovery/flows?id=`, browsers to the recovery UI. Errors that cannot be shown
 * (403, 500…) are thrown for the caller's error handling.
 */
async function retryRecovery(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
  type: FlowType,
  reason: { message: UiText } | { error: unknown },
): Promise<FastifyReply> {
  let message: UiText;
  if ("message" in reason) {
    message = reason.message;
  } else if (reason.error instanceof HerodotError && reason.error.id === "identity_disabled") {
    message = uiText(4010011);
  } else if (reason.error instanceof HerodotError && reason.error.code === 400) {
    message = uiText(4000001, { reason: reason.error.reason ?? reason.error.message });
  } else {
    throw reason.error;
  }
  const flow = await replacementCodeFlow(ctx, request, reply, recoveryFlows, type, message);
  if (isJsonRequest(request)) return reply.redirect(flowFetchUrl(ctx, "recovery", flow.id), 303);
  return reply.redirect(uiUrl(ctx, "/recovery", flow.id), 303);
}

/** Self-service codes prove the address they were sent to, so it becomes verified. */
function addressProvenBy(
  identity: Identity,
  code: StoredCode,
  now: Date,
): VerifiableAddress | undefined {
  if (code.type !== "self_service") return undefined;
  const address = identity.verifiableAddresses.find((a) => a.value === code.addressValue);
  if (!address) return undefined;
  markVerified(address, now);
  return address;
}

/**
 * A code (or an administrator's link token) was submitted: right → recovered; a wrong code → the
 * same flow with 4060006; a wrong link → a new flow with 4060004 (Kratos' link strategy); too many
 * tries or a spent code → a new flow with the reason.
 */
async function useSecret(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
  flow: Flow,
  secret: string,
  kind: "code" | "link",
): Promise<FastifyReply> {
  let code: StoredCode;
  try {
    code = await useOneTimeCode(ctx, flow, "recovery", secret);
  } catch (error) {
    if (!(error instanceof CodeNotFoundError)) {
      return retryRecovery(ctx, request, reply, flow.type, { error });
    }
    if (kind === "link") {
      return retryRecovery(ctx, request, reply, flow.type, { message: uiText(4060004) });
    }
    flow.ui.messages = [uiText(4060006)];
    await updateFlow(ctx.db, flow, ctx.now());
    return answerStep(ctx, request, reply, flow);
  }
  const identity = await findIdentity(ctx.db, code.identityId);
  if (!identity || identity.state !== "active") {
    return retryRecovery(ctx, request, reply, flow.type, { message: uiText(4010011) });
  }
  const verified = addressProvenBy(identity, code, ctx.now());
  return completeRecovery(ctx, request, reply, flow, identity, verified);
}

/** The address form: delete older codes, send a new one if the address is known, show the code form. */
async function sendCode(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
  flow: Flow,
  body: RecoveryBody,
): Promise<FastifyReply> {
  const csrfToken = () => csrfTokenForFlowType(request, reply, ctx.cookies, flow.type);
  if (body.email === "") {
    restoreRecoveryAddressInput(flow, csrfToken(), "");
    throw ValidationError.of("email", uiText(4000002, { property: "email" }));
  }
  if (!/^[^@\s]+@[^@\s]+$/.test(body.email.trim())) {
    restoreRecoveryAddressInput(flow, csrfToken(), body.email);
    throw ValidationError.of(
      "email",
      uiText(4000001, { reason: `${JSON.stringify(body.email)} is not valid "email"` }),
    );
  }
  flow.active = "code";
  flow.state = "sent_email";
  showRecoveryCodeForm(flow, csrfToken(), body.email);
  // The same statements run for known and unknown addresses except the code and message inserts,
  // so neither the answer nor its timing tells whether the address has an account.
  await sendFlowCode(ctx, request, flow, (trx, requester) =>
    sendRecoveryCode(trx, ctx, requester, flow, body.email),
  );
  flow.transientPayload = body.transientPayload;
  return answerStep(ctx, request, reply, flow);
}

/**
 * Recovery by code (Kratos' code strategy; the administrator's link is its GET form): the address
 * form sends a code, the code form checks it.
 */
export const codeRecoveryStrategy: CodeFlowStrategy = {
  id: "code",
  group: "code",
  responsible: (_body, flow) => flow.active === "code",
  populate(ctx, request, reply, flow) {
    flow.active = "code";
    showRecoveryAddressForm(flow, csrfTokenForFlowType(request, reply, ctx.cookies, flow.type));
  },
  async submit({ ctx, request, reply, flow, body: submitted }) {
    const body = decodeRecoveryBody(submitted);
    // The administrator's recovery link (our stand-in for Kratos' link strategy).
    if (request.method === "GET" && body.token !== "") {
      return await useSecret(ctx, request, reply, flow, body.token, "link");
    }

    if (!skipsCsrf(flow)) {
      try {
        ensureCsrf(ctx, request, flow, body.csrfToken);
      } catch (error) {
        // A broken CSRF check means the flow is lost; Kratos starts a new browser flow.
        return await retryRecovery(ctx, request, reply, "browser", { error });
      }
    }
    flow.ui.messages = undefined;
    for (const node of flow.ui.nodes) node.messages = [];

    // Without an address, a flow past the first screen is a code submission.
    if (flow.state !== "choose_method" && body.email === "") {
      return await useSecret(ctx, request, reply, flow, body.code, "code");
    }

    if (await fetchSession(ctx, request)) {
      if (isJsonRequest(request)) return sendError(reply, alreadyLoggedInForRecovery());
      return reply.redirect(ctx.config.defaultReturnUrl, 302);
    }
    if (body.method !== "code") throw ValidationError.of("", uiText(4010005));

    switch (flow.state) {
      case "choose_method":
      case "sent_email":
        return await sendCode(ctx, request, reply, flow, body);
      case "passed_challenge":
        return await retryRecovery(ctx, request, reply, flow.type, { message: uiText(4060001) });
      default:
        return await retryRecovery(ctx, request, reply, flow.type, { message: uiText(4060002) });
    }
  },
};

export function submitRecovery(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  return submitCodeFlow(ctx, request, reply, recoveryFlows);
}
