import { SettingsFlowFromJSON, readIdentityAnswer } from "@portal/client";
import type { IdentityClient } from "@portal/client";
import { data } from "react-router";
import { followOutcome } from "../../flows/follow-outcome.server.ts";
import type { FlowRoute } from "../../flows/follow-outcome.server.ts";
import { classifyIdentityAnswer } from "../../flows/identity-outcome.ts";
import { inputValue } from "../../flows/node-filters.ts";
import { isRecord } from "../../flows/node-guards.ts";
import type { SessionSummary, SessionsResult, SessionsView } from "./sessions.ts";
import { sessionIdField, sessionIntents } from "./sessions.ts";

/**
 * The current session (whoami) and the caller's other sessions (GET /sessions). The card is
 * an extra: when either call fails the page shows without it rather than not at all.
 */
export async function loadSessions(
  frontend: IdentityClient["frontend"],
): Promise<SessionsView | undefined> {
  let current: Awaited<ReturnType<typeof readIdentityAnswer>>;
  let others: typeof current;
  try {
    [current, others] = await Promise.all([
      readIdentityAnswer(() => frontend.toSessionRaw({})),
      readIdentityAnswer(() => frontend.listMySessionsRaw({})),
    ]);
  } catch (error) {
    console.warn("settings: the sessions could not be read", error);
    return undefined;
  }
  if (current.status !== 200 || others.status !== 200 || !Array.isArray(others.body)) {
    return undefined;
  }
  const list: unknown[] = others.body;
  return {
    current: summaryOf(current.body),
    others: list.flatMap((session) => summaryOf(session) ?? []),
  };
}

function summaryOf(session: unknown): SessionSummary | undefined {
  if (!isRecord(session) || typeof session.id !== "string") return undefined;
  const device: unknown = Array.isArray(session.devices) ? session.devices[0] : undefined;
  const text = (value: unknown) => (typeof value === "string" && value !== "" ? value : undefined);
  return {
    id: session.id,
    userAgent: (isRecord(device) && text(device.user_agent)) || "",
    ipAddress: isRecord(device) ? text(device.ip_address) : undefined,
    signedInAt: text(session.issued_at) ?? text(session.authenticated_at),
  };
}

/**
 * "Sign out this session" / "Sign out everywhere else". These are calls of the browser's own
 * session, not settings flow submissions, so the identity service checks no CSRF token: the
 * posted token must be the settings flow's, read back with the browser's cookies, or a page
 * elsewhere could sign the user out.
 */
export async function submitSessionIntent(
  client: IdentityClient,
  form: FormData,
  flowId: string,
  route: FlowRoute,
) {
  const intent = form.get("intent");
  const flow = await readIdentityAnswer(() => client.frontend.getSettingsFlowRaw({ id: flowId }));
  const outcome = classifyIdentityAnswer(flow, { fetched: true });
  if (outcome.kind !== "flow") {
    const result = await followOutcome(outcome, route, flow.setCookies);
    if (result.type === "redirect") return result.response;
    return answer({ kind: "failed" }, 400);
  }
  const posted = form.get("csrf_token");
  const expected = inputValue(SettingsFlowFromJSON(outcome.flow).ui.nodes, "csrf_token");
  if (typeof posted !== "string" || expected === undefined || posted !== expected) {
    return answer({ kind: "failed" }, 400);
  }

  const postedId = form.get(sessionIdField);
  const sessionId = typeof postedId === "string" ? postedId : "";
  const revokeOthers = intent === sessionIntents.revokeOthers;
  if (!revokeOthers && sessionId === "") {
    return answer({ kind: "failed" }, 400);
  }
  const result = revokeOthers
    ? await readIdentityAnswer(() => client.frontend.disableMyOtherSessionsRaw({}))
    : await readIdentityAnswer(() => client.frontend.disableMySessionRaw({ id: sessionId }));
  if (result.status >= 200 && result.status < 300) {
    if (!revokeOthers) return answer({ kind: "revoked" });
    const count =
      isRecord(result.body) && typeof result.body.count === "number" ? result.body.count : 0;
    return answer({ kind: "revoked-others", count });
  }
  // A session that lost its second factor or expired meanwhile goes where the dispatcher says.
  const followed = await followOutcome(classifyIdentityAnswer(result), route, result.setCookies);
  if (followed.type === "redirect") return followed.response;
  return answer({ kind: "failed" }, result.status >= 400 ? result.status : 502);
}

function answer(sessions: SessionsResult, status = 200) {
  return data({ sessions }, { status });
}
