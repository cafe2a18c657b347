import type { FastifyInstance } from "fastify";
import type { ServerContext } from "../context.ts";
import { isJsonRequest } from "../http/content-negotiation.ts";
import { regenerateCsrfSecret } from "../http/csrf.ts";
import { badRequest, forbidden } from "../http/errors.ts";
import { noActiveSession } from "../session/errors.ts";
import { decodeFlowBody } from "../http/flow-body.ts";
import { secureRedirectTo } from "../http/return-to.ts";
import { clearSessionCookie, fetchSession } from "../session/session-manager.ts";
import { hashToken, randomToken } from "../session/session.ts";
import {
  findSessionByTokenHash,
  insertLogoutToken,
  logoutTokenBelongsTo,
  revokeSession,
} from "../store/sessions.ts";
import { forwardError } from "../selfservice/errors.ts";
import { sendError } from "../http/send-error.ts";
import { publicRequestUrl } from "../selfservice/new-flow.ts";

export function registerLogoutRoutes(app: FastifyInstance, ctx: ServerContext): void {
  // Hands out a logout URL for the current browser session; each call mints a new token.
  app.get("/self-service/logout/browser", async (request, reply) => {
    try {
      const active = await fetchSession(ctx, request);
      if (!active) throw noActiveSession();
      const query = request.query as Record<string, string | undefined>;
      const params = new URLSearchParams();
      const token = randomToken("ory_lo_");
      params.set("token", token);
      if (query.return_to) {
        params.set(
          "return_to",
          secureRedirectTo(ctx.returnToPolicy, { sourceUrl: publicRequestUrl(ctx, request) }),
        );
      }
      await insertLogoutToken(ctx.db, active.session.id, hashToken(token), ctx.now());
      return reply.send({
        logout_url: `${ctx.config.publicBaseUrl}/self-service/logout?${params.toString()}`,
        logout_token: token,
      });
    } catch (error) {
      return forwardError(ctx, request, reply, error);
    }
  });

  app.get("/self-service/logout", async (request, reply) => {
    try {
      const query = request.query as Record<string, string | undefined>;
      const token = query.token ?? "";
      if (token === "") throw badRequest("Please include a token in the URL query.");
      const active = await fetchSession(ctx, request);
      if (!active) throw noActiveSession();
      if (!(await logoutTokenBelongsTo(ctx.db, active.session.id, hashToken(token)))) {
        throw forbidden(
          "Unable to log out because the logout token in the URL query does not match the session cookie.",
        );
      }
      await revokeSession(ctx.db, active.session.id, ctx.now());
      clearSessionCookie(ctx, reply);
      regenerateCsrfSecret(request, reply, ctx.cookies);
      const returnTo = secureRedirectTo(ctx.returnToPolicy, {
        sourceUrl: publicRequestUrl(ctx, request),
      });
      if (isJsonRequest(request)) return reply.code(204).send();
      return reply.redirect(returnTo, 303);
    } catch (error) {
      return forwardError(ctx, request, reply, error);
    }
  });

  app.delete("/self-service/logout/api", async (request, reply) => {
    try {
      if ((request.headers["content-type"] ?? "").split(";")[0]?.trim() !== "application/json") {
        throw badRequest(
          `HTTP DELETE Request used unknown HTTP Header "Content-Type: ${request.headers["content-type"] ?? ""}", only [application/json] are supported.`,
        );
      }
      const body = await decodeFlowBody(request, [{ name: "session_token", type: "string" }]);
      const token = typeof body.session_token === "string" ? body.session_token : "";
      const session = token ? await findSessionByTokenHash(ctx.db, hashToken(token)) : undefined;
      if (!session || !session.active) {
        throw forbidden(
          "The provided Ory Session Token could not be found, is invalid, or otherwise malformed.",
        );
      }
      await revokeSession(ctx.db, session.id, ctx.now());
      return reply.code(204).send();
    } catch (error) {
      return sendError(reply, error);
    }
  });
}
