import type { FastifyInstance } from "fastify";
import {
  acceptConsentRequest,
  getConsentRequest,
  rejectConsentRequest,
} from "../challenges/consent-requests.ts";
import {
  acceptLoginRequest,
  getLoginRequest,
  rejectLoginRequest,
  type RedirectTo,
} from "../challenges/login-requests.ts";
import {
  acceptLogoutRequest,
  getLogoutRequest,
  rejectLogoutRequest,
} from "../challenges/logout-requests.ts";
import type { AdminDeps } from "./admin-deps.ts";
import { challengeFrom, decodeBodyError, jsonBody } from "./request-input.ts";

const base = "/admin/oauth2/auth/requests";

/** Hydra's three endpoints for a login or consent challenge: read it, accept it, reject it. */
interface ChallengeEndpoints {
  get(deps: AdminDeps, challenge: string): Promise<unknown>;
  accept(deps: AdminDeps, challenge: string, body: unknown): Promise<RedirectTo>;
  reject(deps: AdminDeps, challenge: string, body: unknown): Promise<RedirectTo>;
}

const challengeEndpoints: Record<"login" | "consent", ChallengeEndpoints> = {
  login: { get: getLoginRequest, accept: acceptLoginRequest, reject: rejectLoginRequest },
  consent: { get: getConsentRequest, accept: acceptConsentRequest, reject: rejectConsentRequest },
};

/** Hydra's login, consent and logout requests (consent/handler.go). */
export function registerRequestRoutes(app: FastifyInstance, deps: AdminDeps): void {
  for (const kind of ["login", "consent"] as const) {
    const endpoints = challengeEndpoints[kind];
    app.get(`${base}/${kind}`, async (request, reply) =>
      reply.send(await endpoints.get(deps, challengeFrom(request, kind))),
    );
    for (const answer of ["accept", "reject"] as const) {
      app.put(`${base}/${kind}/${answer}`, async (request, reply) => {
        // A missing challenge is reported before a malformed body.
        const challenge = challengeFrom(request, kind);
        return reply.send(
          await endpoints[answer](deps, challenge, jsonBody(request, decodeBodyError)),
        );
      });
    }
  }

  app.get(`${base}/logout`, async (request, reply) =>
    reply.send(await getLogoutRequest(deps, challengeFrom(request, "logout"))),
  );
  app.put(`${base}/logout/accept`, async (request, reply) =>
    reply.send(await acceptLogoutRequest(deps, challengeFrom(request, "logout"))),
  );
  app.put(`${base}/logout/reject`, async (request, reply) => {
    await rejectLogoutRequest(deps, challengeFrom(request, "logout"));
    return reply.code(204).send();
  });
}
