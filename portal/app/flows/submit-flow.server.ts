import { readIdentityAnswer } from "@portal/client";
import type { ApiResponse, IdentityAnswer } from "@portal/client";
import { data } from "react-router";
import { setCookieHeaders } from "../http/cookies.server.ts";
import { flowRoute } from "./flow-args.server.ts";
import type { FlowArgs, FlowPageRoute } from "./flow-args.server.ts";
import { followOutcome } from "./follow-outcome.server.ts";
import { classifyIdentityAnswer } from "./identity-outcome.ts";
import type { FlowShape, IdentityOutcome } from "./identity-outcome.ts";

/** What a flow page's action tells {@link submitFlow}: its route, its SDK call and its pages. */
export interface FlowSubmitSteps<Page, Kept extends object> {
  /** The page's request. */
  args: FlowArgs;
  /** The page's route, as {@link followOutcome} needs it. */
  route: FlowPageRoute;
  /** Sends the body (the SDK's update…FlowRaw). */
  send: () => Promise<ApiResponse<unknown>>;
  /** A page's own rule laid over the answer's outcome (e.g. login's unverified address). */
  refine?: (outcome: IdentityOutcome) => IdentityOutcome;
  /** The cookies the response sets: the answer's, unless the page adds its own (login). */
  cookies?: (answer: IdentityAnswer) => readonly string[];
  /** The page's data for a flow to show again (its errors, the values typed). */
  render: (flow: FlowShape) => Page;
  /** The response once the flow is done, with the cookies to set. */
  success: (setCookies: readonly string[]) => Response | Promise<Response>;
  /** What the page keeps when the answer is an error (the values typed), beside the notice. */
  kept?: Kept;
}

/**
 * The shared step of every flow page's action, the counterpart of loadFlowPage: the body is
 * sent, the answer followed as spec §8 says, and its cookies reach the browser on every path.
 * A redirect comes back as it is, a flow to show again as the page's data with the answer's
 * status, success as the page decides, anything else as "something went wrong" (spec §8: e.g.
 * a 400 carrying error code 500), never with a status below 400.
 */
export async function submitFlow<Page, Kept extends object = Record<never, never>>(
  steps: FlowSubmitSteps<Page, Kept>,
) {
  const answer = await readIdentityAnswer(steps.send);
  const setCookies = steps.cookies?.(answer) ?? answer.setCookies;
  const outcome = classifyIdentityAnswer(answer);
  const route = flowRoute(steps.args, steps.route, "submit");
  const result = await followOutcome(steps.refine?.(outcome) ?? outcome, route, setCookies);
  const headers = setCookieHeaders(setCookies);
  switch (result.type) {
    case "redirect":
      return result.response;
    case "render":
      return data(steps.render(result.flow), { status: result.status, headers });
    case "success":
      return steps.success(setCookies);
    case "error":
      return data(
        { notice: "notice.somethingWentWrong" as const, ...(steps.kept as Kept) },
        { status: result.status >= 400 ? result.status : 502, headers },
      );
  }
}
