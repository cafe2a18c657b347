import type { IdentityAnswer } from "@portal/client";
import { followOutcome, flowPageUrl, noticeParam } from "./follow-outcome.server.ts";
import type { FlowRoute } from "./follow-outcome.server.ts";
import { classifyIdentityAnswer } from "./identity-outcome.ts";
import type { FlowShape, IdentityOutcome } from "./identity-outcome.ts";
import { redirectWithCookies } from "../http/redirects.server.ts";

/** What a flow page's loader tells {@link loadFlowPage}: its route and its SDK calls. */
export interface FlowPageSteps {
  /** The page URL's query: `flow` names the flow to show; without it one is created. */
  query: URLSearchParams;
  /** The route description for each phase, as {@link followOutcome} needs it. */
  route: (phase: FlowRoute["phase"]) => FlowRoute;
  /** Creates a browser flow (the SDK's createBrowser…FlowRaw, read as an answer). */
  create: () => Promise<IdentityAnswer>;
  /** Reads the flow of that id (the SDK's get…FlowRaw, read as an answer). */
  get: (id: string) => Promise<IdentityAnswer>;
  /** A page's own rule laid over the read flow's outcome (e.g. login's unverified address). */
  refine?: (outcome: IdentityOutcome) => IdentityOutcome;
  /** Further query parameters the new flow's page URL carries over. */
  carry?: (query: URLSearchParams) => Record<string, string>;
}

/** The flow to render and the cookies of its answer, which the page's response must set. */
export interface FlowPageFlow {
  flow: FlowShape;
  setCookies: readonly string[];
}

/**
 * The shared step of every flow page's loader. Without a `flow` query a browser flow is created
 * and the browser redirected to the page URL that names it (its cookies, e.g. CSRF, relayed);
 * with one the flow is read. Either outcome is followed as spec §8 says: a redirect comes back
 * as a Response, the flow to render as {@link FlowPageFlow}; anything else is a 502.
 */
export async function loadFlowPage(steps: FlowPageSteps): Promise<Response | FlowPageFlow> {
  const { query } = steps;
  const flowId = query.get("flow");
  const refine = steps.refine ?? ((outcome: IdentityOutcome) => outcome);

  if (!flowId) {
    const answer = await steps.create();
    const route = steps.route("create");
    const result = await followOutcome(
      classifyIdentityAnswer(answer, { fetched: true }),
      route,
      answer.setCookies,
    );
    if (result.type === "redirect") return result.response;
    if (result.type !== "render") throw new Response(null, { status: 502 });
    // The new flow's CSRF cookie travels with this redirect; the page URL then names the flow.
    const extra: Record<string, string> = { flow: result.flow.id };
    const notice = query.get(noticeParam);
    if (notice) extra[noticeParam] = notice;
    Object.assign(extra, steps.carry?.(query));
    return redirectWithCookies(flowPageUrl(route, extra), answer.setCookies);
  }

  const answer = await steps.get(flowId);
  const result = await followOutcome(
    refine(classifyIdentityAnswer(answer, { fetched: true })),
    steps.route("fetch"),
    answer.setCookies,
  );
  if (result.type === "redirect") return result.response;
  if (result.type !== "render") throw new Response(null, { status: 502 });
  return { flow: result.flow, setCookies: answer.setCookies };
}
