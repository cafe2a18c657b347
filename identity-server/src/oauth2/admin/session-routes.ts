import type { FastifyInstance } from "fastify";
import { consentSessionJson } from "../challenges/consent-session-view.ts";
import {
  deleteConsentSessions,
  listConsentSessions,
  type ConsentSelector,
} from "../challenges/consent-sessions.ts";
import {
  revokeLoginSessionById,
  revokeLoginSessionsOfSubject,
} from "../challenges/headless-logout.ts";
import { invalidRequest } from "../hydra-error.ts";
import { revokeGrants } from "../tokens/token-rows.ts";
import type { AdminDeps } from "./admin-deps.ts";
import { readPage, setLinkHeader } from "./pagination.ts";
import { queryOf } from "./request-input.ts";

const base = "/admin/oauth2/auth/sessions";

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/** Hydra's consent and login sessions (consent/handler.go). */
export function registerSessionRoutes(app: FastifyInstance, deps: AdminDeps): void {
  app.get(`${base}/consent`, async (request, reply) => {
    const query = queryOf(request);
    const subject = text(query.subject);
    if (subject === "") {
      throw invalidRequest("Query parameter 'subject' is not defined but should have been.");
    }
    const page = readPage(query);
    const result = await listConsentSessions(deps.db, {
      subject,
      loginSessionId: text(query.login_session_id) || undefined,
      now: deps.now(),
      pageSize: page.pageSize,
      after: page.after,
    });
    setLinkHeader(request, reply, page, result.nextAfter);
    return reply.send(
      await Promise.all(result.sessions.map((session) => consentSessionJson(deps.db, session))),
    );
  });

  app.delete(`${base}/consent`, async (request, reply) => {
    const query = queryOf(request);
    const subject = text(query.subject);
    const client = text(query.client);
    const consentRequestId = text(query.consent_request_id);
    const all = query.all === "true";
    let selector: ConsentSelector;
    if (consentRequestId !== "" && subject === "" && client === "") {
      selector = { consentRequestId };
    } else if (consentRequestId === "" && subject !== "" && client !== "" && !all) {
      selector = { subject, clientId: client };
    } else if (consentRequestId === "" && subject !== "" && client === "" && all) {
      selector = { subject, allClients: true };
    } else {
      throw invalidRequest("Invalid combination of query parameters.");
    }
    // Revoking consent revokes every code and token issued under it.
    await revokeGrants(deps.db, await deleteConsentSessions(deps.db, selector));
    return reply.code(204).send();
  });

  app.delete(`${base}/login`, async (request, reply) => {
    const query = queryOf(request);
    const sid = text(query.sid);
    const subject = text(query.subject);
    if (sid === "" && subject === "") {
      throw invalidRequest("Either 'subject' or 'sid' query parameters need to be defined.");
    }
    if (sid !== "") await revokeLoginSessionById(deps, sid);
    else await revokeLoginSessionsOfSubject(deps, subject);
    return reply.code(204).send();
  });
}
