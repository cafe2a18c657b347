import type { FastifyInstance, FastifyReply } from "fastify";
import type { ServerContext } from "../context.ts";
import { unauthorized } from "../http/errors.ts";
import { sendError } from "../http/send-error.ts";
import { aal2LoginUrl, aal2Required, satisfiesAal } from "./aal-policy.ts";
import { extractSessionToken, fetchSessionByToken } from "./session-manager.ts";
import { hashToken, sessionJson } from "./session.ts";
import { WhoamiCache, type StoreStamp } from "./whoami-cache.ts";

function sendSession(reply: FastifyReply, identityId: string, body: string): FastifyReply {
  reply.header("x-kratos-authenticated-identity-id", identityId);
  reply.header("content-type", "application/json; charset=utf-8");
  return reply.send(body);
}

/**
 * GET /sessions/whoami: the caller's session (cookie, X-Session-Token or Bearer), 401 without
 * one, 403 `session_aal2_required` while the second factor the identity has is still missing;
 * with `tokenize_as=<template>` the session also carries itself as a JWT (`tokenized`).
 * Answers without `tokenize_as` are kept in an exactly invalidated cache (see whoami-cache.ts).
 */
export function registerWhoamiRoute(app: FastifyInstance, ctx: ServerContext): void {
  const cache = new WhoamiCache(ctx.db);
  app.route({
    method: ["GET", "POST", "PUT", "PATCH", "DELETE"],
    url: "/sessions/whoami",
    // Not async: a cached answer is sent without a promise; only a store read awaits.
    handler: (request, reply) => {
      const template = (request.query as Record<string, unknown>).tokenize_as;
      const tokenize = typeof template === "string" && template !== "";
      const token = extractSessionToken(ctx, request);
      const tokenHash = token ? hashToken(token) : undefined;
      // Taken before the store is read: `set` keeps the answer only if nothing moved past it.
      const readAt = cache.stamp();
      if (tokenHash && !tokenize) {
        const hit = cache.get(tokenHash, ctx.now(), readAt);
        if (hit) {
          sendSession(reply, hit.identityId, hit.body);
          return;
        }
      }
      return answerFromStore(reply, token, tokenHash, tokenize ? template : undefined, readAt);
    },
  });

  async function answerFromStore(
    reply: FastifyReply,
    token: string | undefined,
    tokenHash: string | undefined,
    template: string | undefined,
    readAt: StoreStamp,
  ): Promise<FastifyReply> {
    // The answer shows no credentials; the AAL policy reads only their types and configs.
    const active =
      token && tokenHash
        ? await fetchSessionByToken(ctx, token, tokenHash, { credentialIdentifiers: false })
        : undefined;
    if (!active) {
      // Kratos sends this 401 without an error id (see kratos-behaviour §0-15).
      return sendError(reply, unauthorized("No valid session credentials found in the request."));
    }
    const required = ctx.config.secondFactor.whoamiRequiredAal;
    if (!satisfiesAal(ctx, active.session, active.identity, required)) {
      return sendError(reply, aal2Required(aal2LoginUrl(ctx)));
    }
    const body = sessionJson(active.session, active.identity, ctx.config.publicBaseUrl, ctx.now());
    if (template !== undefined) {
      try {
        body.tokenized = await ctx.sessionTokenizer.tokenize(template, active.session, ctx.now());
      } catch (error) {
        return sendError(reply, error);
      }
      return sendSession(reply, active.identity.id, JSON.stringify(body));
    }
    const text = JSON.stringify(body);
    if (tokenHash) {
      cache.set(tokenHash, readAt, {
        body: text,
        identityId: active.identity.id,
        expiresAtMs: active.session.expiresAt.getTime(),
      });
    }
    return sendSession(reply, active.identity.id, text);
  }

  // Ours: the public key the tokenized sessions are signed with, so that services can verify them.
  // Kratos publishes none (verifiers use the template's jwks_url), so strict mode leaves it out.
  if (!ctx.config.oryExtensions) return;
  app.get("/.well-known/ory/session-tokenizer/jwks.json", async (_request, reply) =>
    reply.header("cache-control", "max-age=300").send(ctx.sessionTokenizer.publicJwks()),
  );
}
