import type { ServerContext } from "../context.ts";
import type { Flow, FlowType } from "../selfservice/flow.ts";
import type { FlowErrorPolicy } from "./flow-errors.ts";
import { renderWithLoginRequest } from "./oauth2-login-challenge.ts";

/**
 * The error policy of the flows that sign in and may answer an OAuth2 login challenge (login and
 * registration): an expired flow is answered 410 and replaced by a new one (`create`) that keeps
 * the old one's request URL, return_to and challenge, and a form is shown with the login request.
 */
export function signInErrorPolicy(
  ctx: ServerContext,
  create: (type: FlowType) => Promise<Flow>,
  kind: Pick<
    FlowErrorPolicy,
    "kind" | "uiPath" | "redirectStatus" | "expiredMessageId" | "sortOptions"
  >,
): FlowErrorPolicy {
  return {
    ...kind,
    expiredAnswer: "gone",
    async replace(old) {
      const replacement = await create(old.type);
      replacement.requestUrl = old.requestUrl;
      replacement.returnTo = old.returnTo;
      replacement.oauth2LoginChallenge = old.oauth2LoginChallenge;
      return replacement;
    },
    render: (flow) => renderWithLoginRequest(ctx, flow),
  };
}
