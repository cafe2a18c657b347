import { randomUUID } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { formatGoDuration, parseDuration } from "../config/duration.ts";
import type { ServerContext } from "../context.ts";
import { answeringErrors } from "../http/send-error.ts";
import { isUuid } from "../http/uuid-param.ts";
import type { Flow, FlowType } from "../selfservice/flow.ts";
import { newFlow } from "../selfservice/new-flow.ts";
import { badRequest, HerodotError } from "../http/errors.ts";
import { parseJsonBody } from "../http/json-body.ts";
import { unboundCsrfToken } from "../http/csrf.ts";
import {
  showAdminRecoveryCodeForm,
  showRecoveryAddressForm,
} from "../methods/code/recovery-nodes.ts";
import { generateCode, hmacCode } from "../methods/code/one-time-code.ts";
import { randomToken } from "../session/session.ts";
import { insertCode, type CodeType } from "../store/codes.ts";
import { insertFlow } from "../store/flows.ts";
import { findIdentity } from "../store/identities.ts";

interface AdminRecoveryBody {
  identityId: string;
  expiresInMs: number;
  flowType: FlowType;
}

function parseBody(ctx: ServerContext, request: FastifyRequest): AdminRecoveryBody {
  const raw = parseJsonBody(request);
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    throw badRequest("The request body must be a JSON object.");
  }
  const body = raw as Record<string, unknown>;
  const identityId = body.identity_id ?? "";
  if (typeof identityId !== "string" || (identityId !== "" && !isUuid(identityId))) {
    throw badRequest(undefined, {
      message: `uuid: incorrect UUID format ${JSON.stringify(identityId)}`,
    });
  }
  let expiresInMs = ctx.config.codeLifespanMs;
  if (typeof body.expires_in === "string" && body.expires_in !== "") {
    const parsed = parseDuration(body.expires_in);
    if (parsed === undefined) {
      throw badRequest(
        `Unable to parse "expires_in" as a duration string (e.g. "1h", "1m30s", "500ms"): ${body.expires_in}`,
      );
    }
    expiresInMs = parsed;
  }
  if (expiresInMs <= 0) {
    throw badRequest(
      `Value from "expires_in" must result to a future time: ${formatGoDuration(expiresInMs)}`,
    );
  }
  const flowType = body.flow_type ?? "browser";
  if (flowType !== "browser" && flowType !== "api") {
    throw badRequest(`Value from "flow_type" is not valid: ${JSON.stringify(flowType)}`);
  }
  return { identityId: identityId.toLowerCase(), expiresInMs, flowType };
}

function adminUrl(ctx: ServerContext, request: FastifyRequest): string {
  return `http://127.0.0.1:${ctx.config.adminPort}${request.url}`;
}

/**
 * Stores an administrator-made recovery flow and its secret; the flow skips CSRF checks because the
 * user did not start it in their browser, and the secret proves no address (nothing gets verified).
 */
async function createAdminRecovery(
  ctx: ServerContext,
  flow: Flow,
  identityId: string,
  secret: string,
  type: CodeType,
  expiresInMs: number,
): Promise<void> {
  const now = ctx.now();
  flow.internalContext = { ...flow.internalContext, skip_csrf: true };
  flow.identityId = identityId;
  await ctx.db.transaction().execute(async (trx) => {
    await insertFlow(trx, flow);
    await insertCode(trx, {
      id: randomUUID(),
      flowId: flow.id,
      kind: "recovery",
      hmac: hmacCode(ctx.secret, secret),
      type,
      identityId,
      addressValue: undefined,
      addressVia: undefined,
      usedAt: undefined,
      expiresAt: new Date(now.getTime() + expiresInMs),
      issuedAt: now,
    });
  });
}

async function requireIdentity(ctx: ServerContext, id: string): Promise<void> {
  if (id === "" || !(await findIdentity(ctx.db, id))) {
    throw new HerodotError(404, {
      message: "Unable to locate the resource",
      reason: "could not find identity",
    });
  }
}

async function createRecoveryCode(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const body = parseBody(ctx, request);
  const flow = newFlow(ctx, request, reply, "recovery", body.flowType, {
    requestUrl: adminUrl(ctx, request),
    lifespanMs: body.expiresInMs,
    bindCsrfCookie: false,
  });
  flow.active = "code";
  flow.state = "sent_email";
  showAdminRecoveryCodeForm(flow);
  await requireIdentity(ctx, body.identityId);
  const code = generateCode();
  await createAdminRecovery(ctx, flow, body.identityId, code, "admin", body.expiresInMs);
  return reply.code(201).send({
    recovery_link: `${ctx.config.uiBaseUrl}/recovery?flow=${flow.id}`,
    recovery_code: code,
    expires_at: flow.expiresAt.toISOString(),
  });
}

async function createRecoveryLink(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const body = parseBody(ctx, request);
  // newFlow refuses a return_to the user may not be sent to before anything is created.
  const flow = newFlow(ctx, request, reply, "recovery", "browser", {
    requestUrl: adminUrl(ctx, request),
    lifespanMs: body.expiresInMs,
    bindCsrfCookie: false,
  });
  flow.active = "code";
  showRecoveryAddressForm(flow, unboundCsrfToken());
  await requireIdentity(ctx, body.identityId);
  const token = randomToken("");
  await createAdminRecovery(ctx, flow, body.identityId, token, "admin_link", body.expiresInMs);
  const link = new URL(`${ctx.config.publicBaseUrl}/self-service/recovery`);
  link.searchParams.set("flow", flow.id);
  link.searchParams.set("token", token);
  return reply.send({ recovery_link: link.toString(), expires_at: flow.expiresAt.toISOString() });
}

/** POST /admin/recovery/code (Kratos' code strategy) and /admin/recovery/link (see README). */
export function registerAdminRecoveryRoutes(app: FastifyInstance, ctx: ServerContext): void {
  app.post(
    "/admin/recovery/code",
    answeringErrors((request, reply) => createRecoveryCode(ctx, request, reply)),
  );
  app.post(
    "/admin/recovery/link",
    answeringErrors((request, reply) => createRecoveryLink(ctx, request, reply)),
  );
}
