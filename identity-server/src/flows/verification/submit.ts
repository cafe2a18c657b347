import type { FastifyReply, FastifyRequest } from "fastify";
import type { ServerContext } from "../../context.ts";
import { markVerified } from "../../identity/verified-address.ts";
import {
  replacementCodeFlow,
  sendFlowCode,
  submitCodeFlow,
  type CodeFlowStrategy,
} from "../code-flow.ts";
import { isBrowserRequest, isJsonRequest } from "../../http/content-negotiation.ts";
import { csrfTokenFor, regenerateCsrfSecret } from "../../http/csrf.ts";
import { gone, HerodotError } from "../../http/errors.ts";
import type { FlowBody } from "../../http/flow-body.ts";
import { channelOf, sendVerificationCodeFor } from "../../methods/code/send-code.ts";
import { CodeNotFoundError, useOneTimeCode } from "../../methods/code/use-code.ts";
import {
  restoreVerificationAddressInput,
  showVerificationAddressForm,
  showVerificationCodeForm,
  showVerificationDone,
} from "../../methods/code/verification-nodes.ts";
import { updateFlow } from "../../store/flows.ts";
import { findIdentity, updateVerifiableAddress } from "../../store/identities.ts";
import { uiText, type UiText } from "../../text/messages.ts";
import { csrfNode, findInput, setNodeValue, upsertNode } from "../../ui/nodes.ts";
import { ValidationError } from "../../ui/validation-error.ts";
import { ensureCsrf } from "../../selfservice/csrf-check.ts";
import { sendError } from "../../http/send-error.ts";
import { uiUrl } from "../flow-errors.ts";
import { flowJson, type Flow, type FlowType } from "../../selfservice/flow.ts";
import { continueToOAuth2 } from "./oauth2.ts";
import { verificationContinueUrl, verificationCsrfToken } from "./flow.ts";
import { verificationFlows } from "./flow.ts";
import { methodFields } from "../../selfservice/method-fields.ts";

const verificationFields = methodFields({
  code: "string",
  email: "string",
  // The hooks name the resend button after the channel, so a phone number may arrive as `sms`.
  sms: "string",
});

interface VerificationBody {
  method: string | undefined;
  code: string;
  address: string;
  csrfToken: string | undefined;
}

function decodeVerificationBody(submitted: FlowBody): VerificationBody {
  const body = submitted.fields(verificationFields);
  const text = (key: string) => (typeof body[key] === "string" ? body[key] : "");
  const code = text("code");
  return {
    // Kratos infers the method when only a code is sent (e.g. from the e-mail link).
    method: text("method") || (code ? "code" : undefined),
    code,
    address: text("email") || text("sms"),
    csrfToken: text("csrf_token") || undefined,
  };
}

/** After a successful step: HTML clients go to the verification UI, everyone else gets the flow. */
function answerStep(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
  flow: Flow,
  status = 200,
): FastifyReply {
  if (isBrowserRequest(request)) return reply.redirect(uiUrl(ctx, "/verification", flow.id), 303);
  return reply.code(status).send(flowJson(flow));
}

/**
 * The flow cannot continue (already finished, or a code error that is not "wrong code"): a fresh
 * flow carries the message; JSON clients get 410 `self_service_flow_replaced` with its id.
 */
async function replaceFlow(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
  type: FlowType,
  message: UiText,
  reason: string,
): Promise<FastifyReply> {
  const flow = await replacementCodeFlow(ctx, request, reply, verificationFlows, type, message);
  if (isJsonRequest(request)) {
    return sendError(
      reply,
      gone({
        id: "self_service_flow_replaced",
        message: "self-service flow replaced",
        reason,
        extra: { use_flow_id: flow.id },
      }),
    );
  }
  return reply.redirect(uiUrl(ctx, "/verification", flow.id), 303);
}

function replacementMessage(error: unknown): UiText {
  if (error instanceof HerodotError && error.code === 400) {
    return uiText(4000001, { reason: error.reason ?? error.message });
  }
  throw error;
}

/** The e-mail link (GET with `code`): fill the code in and show the form; nothing is used yet. */
async function fillInLinkCode(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
  flow: Flow,
  code: string,
): Promise<FastifyReply> {
  const input = findInput(flow.ui, "code");
  if (input) setNodeValue(input, code);
  regenerateCsrfSecret(request, reply, ctx.cookies);
  flow.csrfToken = csrfTokenFor(request, reply, ctx.cookies);
  upsertNode(flow.ui, csrfNode(flow.csrfToken));
  await updateFlow(ctx.db, flow, ctx.now());
  return reply.redirect(uiUrl(ctx, "/verification", flow.id), 303);
}

async function useCode(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
  flow: Flow,
  submitted: string,
): Promise<FastifyReply> {
  const wrongCode = async () => {
    flow.ui.messages = [uiText(4070006)];
    await updateFlow(ctx.db, flow, ctx.now());
    return answerStep(ctx, request, reply, flow);
  };
  let code;
  try {
    code = await useOneTimeCode(ctx, flow, "verification", submitted);
  } catch (error) {
    if (error instanceof CodeNotFoundError) return wrongCode();
    return replaceFlow(
      ctx,
      request,
      reply,
      flow.type,
      replacementMessage(error),
      "An error occured, please retry the flow.",
    );
  }
  const identity = await findIdentity(ctx.db, code.identityId);
  const address = identity?.verifiableAddresses.find(
    (a) => a.value === code.addressValue && a.via === code.addressVia,
  );
  // The address was changed away after the code was sent.
  if (!address) return wrongCode();

  const now = ctx.now();
  markVerified(address, now);
  flow.state = "passed_challenge";
  showVerificationDone(flow, verificationContinueUrl(ctx, flow), address.via);
  if (flow.type === "browser") flow.csrfToken = csrfTokenFor(request, reply, ctx.cookies);
  await ctx.db.transaction().execute(async (trx) => {
    await updateVerifiableAddress(trx, address);
    await updateFlow(trx, flow, now);
  });
  if (await continueToOAuth2(ctx, request, reply, flow)) return reply;
  return answerStep(ctx, request, reply, flow);
}

/** Sends a (new) code to the typed address; earlier codes of the flow stop working. */
async function sendCode(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
  flow: Flow,
  body: VerificationBody,
): Promise<FastifyReply> {
  const restoreInput = () =>
    restoreVerificationAddressInput(
      flow,
      verificationCsrfToken(ctx, request, reply, flow),
      body.address,
    );
  if (body.address === "") {
    restoreInput();
    throw ValidationError.of("email", uiText(4000002, { property: "email" }));
  }
  try {
    ensureCsrf(ctx, request, flow, body.csrfToken);
  } catch (error) {
    restoreInput();
    throw error;
  }
  const channel = channelOf(body.address);
  flow.state = "sent_email";
  showVerificationCodeForm(
    flow,
    verificationCsrfToken(ctx, request, reply, flow),
    { name: "email", address: body.address },
    channel,
  );
  await sendFlowCode(ctx, request, flow, (trx, requester) =>
    sendVerificationCodeFor(trx, ctx, requester, flow, body.address),
  );
  return answerStep(ctx, request, reply, flow);
}

/**
 * Verification by code (Kratos' code strategy): the address form sends a code, the code (typed, or
 * from the e-mail's link) is checked. Kratos infers the method when only a code is sent.
 */
export const codeVerificationStrategy: CodeFlowStrategy = {
  id: "code",
  group: "code",
  responsible: (body) => decodeVerificationBody(body).method === "code",
  populate(ctx, request, reply, flow) {
    flow.active = "code";
    showVerificationAddressForm(flow, verificationCsrfToken(ctx, request, reply, flow));
  },
  async submit({ ctx, request, reply, flow, body: submitted }) {
    const body = decodeVerificationBody(submitted);
    flow.ui.messages = undefined;
    switch (flow.state) {
      case "choose_method":
      case "sent_email":
        if (body.code !== "") {
          if (request.method === "GET")
            return await fillInLinkCode(ctx, request, reply, flow, body.code);
          return await useCode(ctx, request, reply, flow, body.code);
        }
        return await sendCode(ctx, request, reply, flow, body);
      case "passed_challenge":
        return await replaceFlow(
          ctx,
          request,
          reply,
          flow.type,
          uiText(4070002),
          "An error occured, please use the new flow.",
        );
      default:
        return await replaceFlow(
          ctx,
          request,
          reply,
          flow.type,
          uiText(4070003),
          "An error occured, please use the new flow.",
        );
    }
  },
};

export function submitVerification(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  return submitCodeFlow(ctx, request, reply, verificationFlows);
}
