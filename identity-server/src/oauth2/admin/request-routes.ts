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
} from "../challenges/login-requests.ts";
import {
  acceptLogoutRequest,
  getLogoutRequest,
  rejectLogoutRequest,
} from "../challenges/logout-requests.ts";
import type { AdminDeps } from "./admin-deps.ts";
import { challengeFrom, decodeBodyError, jsonBody } from "./request-input.ts";

const base = "/admin/oauth2/auth/requests";

/** Hydra's login, consent and logout requests (consent/handler.go). */
export function registerRequestRoutes(app: FastifyInstance, deps: AdminDeps): void {
  app.get(`${base}/login`, async (request, reply) =>
    reply.send(await getLoginRequest(deps, challengeFrom(request, "login"))),
  );
  app.put(`${base}/login/accept`, async (request, reply) => {
    const challenge = challengeFrom(request, "login");
    return reply.send(
      await acceptLoginRequest(deps, challenge, jsonBody(request, decodeBodyError)),
    );
  });
  app.put(`${base}/login/reject`, async (request, reply) => {
    const challenge = challengeFrom(request, "login");
    return reply.send(
      await rejectLoginRequest(deps, challenge, jsonBody(request, decodeBodyError)),
    );
  });

  app.get(`${base}/consent`, async (request, reply) =>
    reply.send(await getConsentRequest(deps, challengeFrom(request, "consent"))),
  );
  app.put(`${base}/consent/accept`, async (request, reply) => {
    const challenge = challengeFrom(request, "consent");
    return reply.send(
      await acceptConsentRequest(deps, challenge, jsonBody(request, decodeBodyError)),
    );
  });
  app.put(`${base}/consent/reject`, async (request, reply) => {
    const challenge = challengeFrom(request, "consent");
    return reply.send(
      await rejectConsentRequest(deps, challenge, jsonBody(request, decodeBodyError)),
    );
  });

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
