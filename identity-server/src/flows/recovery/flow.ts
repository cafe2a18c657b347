import type { Flow } from "../../selfservice/flow.ts";
import type { CodeFlowKind } from "../code-flow.ts";
import { recoveryStrategies } from "./strategies.ts";

/** Flows an administrator made skip the CSRF checks: the user did not start them in a browser. */
export function skipsCsrf(flow: Flow): boolean {
  return flow.internalContext.skip_csrf === true;
}

export const recoveryFlows: CodeFlowKind = {
  kind: "recovery",
  uiPath: "/recovery",
  expiredMessageId: 4060005,
  notResponsibleMessageId: 4010005,
  strategies: () => recoveryStrategies(),
};
