import type { CodeFlowStrategy } from "../code-flow.ts";
import { codeRecoveryStrategy } from "./submit.ts";

/** The recovery flow's strategies, in order: a new method (a link, say) is one more line here. */
export function recoveryStrategies(): readonly CodeFlowStrategy[] {
  return [codeRecoveryStrategy];
}
