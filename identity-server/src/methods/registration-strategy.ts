import type { ServerContext } from "../context.ts";
import type { Flow } from "../selfservice/flow.ts";
import type { FlowBody } from "../http/flow-body.ts";
import type { Identity } from "../identity/identity.ts";
import type { NodeGroup } from "../ui/nodes.ts";
import type { MethodStep } from "./method-step.ts";

/**
 * One way to sign up (Kratos' registration.Strategy). The registration flow knows no method by
 * name: every strategy of the registry (registration-strategies.ts) adds its part of a new flow's
 * form, and a submission goes to the first one responsible for it. A registration always gives
 * aal1 (Kratos records AuthenticatorAssuranceLevel1 for every registration method).
 */
export interface RegistrationStrategy {
  /** The credential type; also the method recorded in the new session's AMR. */
  readonly id: string;
  /** The node group of its form. */
  readonly group: NodeGroup;
  /** Whether the submission is for this strategy (Kratos: it does not answer ErrStrategyNotResponsible). */
  responsible(body: FlowBody): boolean;
  /** Adds its part of the form to a new flow. */
  populate(ctx: ServerContext, flow: Flow): void | Promise<void>;
  /**
   * Handles a submission it is responsible for (runMethodStep does the common part) and returns
   * the new identity with its credential, not yet stored: the flow stores it with the session.
   */
  submit(step: MethodStep): Promise<Identity>;
}
