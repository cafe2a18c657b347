import { readIdentityAnswer } from "@portal/client";
import type { IdentityClient } from "@portal/client";
import { createFlow, getFlow } from "./flow-calls.server.ts";
import { flowRoute } from "./flow-args.server.ts";
import type { FlowArgs, FlowPageRoute } from "./flow-args.server.ts";
import { followOutcome, flowPageUrl, noticeParam } from "./follow-outcome.server.ts";
import { classifyIdentityAnswer } from "./identity-outcome.ts";
import { noticeFromQuery } from "./notice-query.ts";
import type { FlowShape, IdentityOutcome } from "./identity-outcome.ts";
import { searchWithFlow } from "../http/page-address.ts";
import { redirectWithCookies } from "../http/redirects.server.ts";
import { requestInfoContext } from "../http/request-context.ts";

/** What a flow page's loader adds to {@link loadFlowPage}'s own steps, if anything. */
export interface FlowPageSteps {
  /**
   * Started together with the identity call whose flow this response renders (the read, or the
   * creation when the page renders the new flow itself), e.g. verification's session read.
   */
  beside?: () => void;
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
 * and, for a document, rendered in the same response at the address that names it (see
 * http/page-address.ts); a client navigation is redirected to that address (its cookies, e.g.
 * CSRF, relayed). With a `flow` query the flow is read. Either outcome is followed as spec §8
 * says: a redirect comes back as a Response, the flow to render as {@link FlowPageFlow};
 * anything else is a 502.
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
    const address = args.context.get(requestInfoContext).pageAddress;
    if (address) steps.beside?.();
    const answer = await readIdentityAnswer(() => createFlow(frontend, page.page, query));
    const route = flowRoute(args, page, "create");
    const result = await followOutcome(
      refine(classifyIdentityAnswer(answer, { fetched: true })),
      route,
      answer.setCookies,
    );
    if (result.type === "redirect") return result.response;
    if (result.type !== "render") throw unexpected(result);
    if (address) {
      // A document: the new flow is rendered in this response, at the address that names it
      // (its cookies, e.g. CSRF, go with the page), one identity call and no round trip.
      address.search = searchWithFlow(args.url.search, result.flow.id);
      return flowPageFlow(result.flow, answer.setCookies, query);
    }
    // A client navigation's data request: the browser is sent to the page URL that names the
    // flow (its cookies relayed), so the address it renders at holds the flow.
    const extra: Record<string, string> = { flow: result.flow.id };
    const notice = query.get(noticeParam);
    if (notice) extra[noticeParam] = notice;
    Object.assign(extra, steps.carry?.(query));
    return redirectWithCookies(flowPageUrl(route, extra), answer.setCookies);
  }

  steps.beside?.();
  const answer = await readIdentityAnswer(() => getFlow(frontend, page.page, flowId));
  const result = await followOutcome(
    refine(classifyIdentityAnswer(answer, { fetched: true })),
    flowRoute(args, page, "fetch"),
    answer.setCookies,
  );
  if (result.type === "redirect") return result.response;
  if (result.type !== "render") throw unexpected(result);
  return flowPageFlow(result.flow, answer.setCookies, query);
}

/**
 * What the page answers when the identity service neither gave a flow nor sent the browser on:
 * its refusal of the request (a 4xx, e.g. an unknown login_challenge) is the visitor's error
 * and keeps its status; anything else is a 502 (the service failed).
 */
function unexpected(result: { type: string; status?: number }): Response {
  const status = result.type === "error" && result.status !== undefined ? result.status : 502;
  return new Response(null, { status: status >= 400 && status < 500 ? status : 502 });
}

function flowPageFlow(
  flow: FlowShape,
  setCookies: readonly string[],
  query: URLSearchParams,
): FlowPageFlow {
  return { flow, setCookies, notice: noticeFromQuery(query.get(noticeParam)) };
}
