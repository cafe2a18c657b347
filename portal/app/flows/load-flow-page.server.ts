import { readIdentityAnswer } from "@portal/client";
import type { ApiResponse, IdentityClient } from "@portal/client";
import { createFlow, getFlow } from "./flow-calls.server.ts";
import { flowRoute } from "./flow-args.server.ts";
import type { FlowArgs, FlowPageRoute } from "./flow-args.server.ts";
import { followOutcome, flowPageUrl, noticeParam } from "./follow-outcome.server.ts";
import { classifyIdentityAnswer } from "./identity-outcome.ts";
import { noticeFromQuery } from "./notice-query.ts";
import type { FlowShape, IdentityOutcome } from "./identity-outcome.ts";
import { redirectWithCookies } from "../http/redirects.server.ts";

/** What a flow page's loader adds to {@link loadFlowPage}'s own steps, if anything. */
export interface FlowPageSteps {
  /** Reads the flow of that id, when the page reads more beside it (the SDK's get…FlowRaw). */
  get?: (id: string) => Promise<ApiResponse<unknown>>;
  /** A page's own rule laid over the read flow's outcome (e.g. login's unverified address). */
  refine?: (outcome: IdentityOutcome) => IdentityOutcome;
  /** Further query parameters the new flow's page URL carries over. */
  carry?: (query: URLSearchParams) => Record<string, string>;
}

/** The flow to render, the cookies of its answer (the page's response must set them), and the
 * notice the page URL carries (why the flow was started again, see follow-outcome). */
export interface FlowPageFlow {
  flow: FlowShape;
  setCookies: readonly string[];
  notice: ReturnType<typeof noticeFromQuery>;
}

/**
 * The shared step of every flow page's loader. Without a `flow` query a browser flow is created
 * and the browser redirected to the page URL that names it (its cookies, e.g. CSRF, relayed);
 * with one the flow is read. Either outcome is followed as spec §8 says: a redirect comes back
 * as a Response, the flow to render as {@link FlowPageFlow}; anything else is a 502.
 */
export async function loadFlowPage(
  args: FlowArgs,
  frontend: IdentityClient["frontend"],
  page: FlowPageRoute,
  steps: FlowPageSteps = {},
): Promise<Response | FlowPageFlow> {
  const query = args.url.searchParams;
  const flowId = query.get("flow");
  const refine = steps.refine ?? ((outcome: IdentityOutcome) => outcome);

  if (!flowId) {
    const answer = await readIdentityAnswer(() => createFlow(frontend, page.page, query));
    const route = flowRoute(args, page, "create");
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

  const get = steps.get ?? ((id: string) => getFlow(frontend, page.page, id));
  const answer = await readIdentityAnswer(() => get(flowId));
  const result = await followOutcome(
    refine(classifyIdentityAnswer(answer, { fetched: true })),
    flowRoute(args, page, "fetch"),
    answer.setCookies,
  );
  if (result.type === "redirect") return result.response;
  if (result.type !== "render") throw new Response(null, { status: 502 });
  const notice = noticeFromQuery(query.get(noticeParam));
  return { flow: result.flow, setCookies: answer.setCookies, notice };
}
