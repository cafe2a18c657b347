import type { CodeFlowStrategy } from "../code-flow.ts";
import { codeVerificationStrategy } from "./submit.ts";

/** The verification flow's strategies, in order: a new method (a link, say) is one more line here. */
export function verificationStrategies(): readonly CodeFlowStrategy[] {
  return [codeVerificationStrategy];
}
