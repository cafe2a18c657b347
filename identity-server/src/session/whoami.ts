import type { FastifyInstance } from "fastify";
import type { ServerContext } from "../context.ts";
import { unauthorized } from "../http/errors.ts";
import { sendError } from "../flows/errors.ts";
import { aal2LoginUrl, aal2Required, satisfiesAal } from "./aal-policy.ts";
import { fetchSession } from "./session-manager.ts";
import { sessionJson } from "./session.ts";

/**
 * GET /sessions/whoami: the caller's session (cookie, X-Session-Token or Bearer), 401 without
 * one, 403 `session_aal2_required` while the second factor the identity has is still missing;
 * with `tokenize_as=<template>` the session also carries itself as a JWT (`tokenized`).
 */
export function registerWhoamiRoute(app: FastifyInstance, ctx: ServerContext): void {
  app.route({
    method: ["GET", "POST", "PUT", "PATCH", "DELETE"],
    url: "/sessions/whoami",
    handler: async (request, reply) => {
      const active = await fetchSession(ctx, request);
      if (!active) {
        // Kratos sends this 401 without an error id (see kratos-behaviour §0-15).
        return sendError(reply, unauthorized("No valid session credentials found in the request."));
      }
      const required = ctx.config.secondFactor.whoamiRequiredAal;
      if (!satisfiesAal(ctx, active.session, active.identity, required)) {
        return sendError(reply, aal2Required(aal2LoginUrl(ctx)));
      }
      const body = sessionJson(
        active.session,
        active.identity,
        ctx.config.publicBaseUrl,
        ctx.now(),
      );
      const template = (request.query as Record<string, unknown>).tokenize_as;
      if (typeof template === "string" && template !== "") {
        try {
          body.tokenized = await ctx.sessionTokenizer.tokenize(template, active.session, ctx.now());
        } catch (error) {
          return sendError(reply, error);
        }
      }
      reply.header("x-kratos-authenticated-identity-id", active.identity.id);
      return reply.send(body);
    },
  });

  // Ours: the public key the tokenized sessions are signed with, so that services can verify them.
  app.get("/.well-known/ory/session-tokenizer/jwks.json", async (_request, reply) =>
    reply.header("cache-control", "max-age=300").send(ctx.sessionTokenizer.publicJwks()),
  );
}
