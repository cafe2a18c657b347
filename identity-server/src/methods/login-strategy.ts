import type { SecondFactorConfig } from "../config/second-factor-config.ts";
import type { ServerContext } from "../context.ts";
import type { Flow } from "../selfservice/flow.ts";
import type { FlowBody } from "../http/flow-body.ts";
import type { Identity } from "../identity/identity.ts";
import type { NodeGroup } from "../ui/nodes.ts";
import type { MethodStep } from "./method-step.ts";

/** One submission of a login flow, as every login strategy receives it. */
export interface LoginStep extends MethodStep {
  /** The signed-in identity a second factor is for; undefined before the first factor. */
  identity: Identity | undefined;
}

/** What a strategy's submission came to. */
type LoginOutcome =
  /** The factor was verified for this identity: the login completes with the strategy's method. */
  | { kind: "authenticated"; identity: Identity }
  /** A step that is not the end of the login (a code was sent): the flow is shown again. */
  | { kind: "continue" };

/**
 * One way to sign in (Kratos' login.Strategy). The login flow knows no method by name: it asks the
 * registry (login-strategies.ts) which strategies offer the flow's AAL, lets each add its form, and
 * hands a submission to the first one responsible for it.
 */
export interface LoginStrategy {
  /** The credential type; also the method recorded in the session's AMR. */
  readonly id: string;
  /** The node group of its form. */
  readonly group: NodeGroup;
  /** aal1: a first factor, offered before any session; aal2: a second factor on top of one. */
  readonly aal: "aal1" | "aal2";
  /** Whether the identity can sign in with it (for second factors, Kratos' CountActiveMultiFactorCredentials). */
  configured(identity: Identity, config: SecondFactorConfig): boolean;
  /** Whether the submission is for this strategy (Kratos: it does not answer ErrStrategyNotResponsible). */
  responsible(body: FlowBody): boolean;
  /**
   * Adds its form to a new flow. A first factor gets the session's identity when the flow
   * re-authenticates it (refresh), none before a session; a second factor always gets it.
   */
  populate(ctx: ServerContext, flow: Flow, identity: Identity | undefined): void | Promise<void>;
  /** Handles a submission it is responsible for (runMethodStep does the common part). */
  submit(step: LoginStep): Promise<LoginOutcome>;
}

/** The identity a second factor is for: a flow only reaches one with a session. */
export function sessionIdentityOf(step: LoginStep): Identity {
  if (!step.identity) throw new Error("a second factor was submitted without a session");
  return step.identity;
}
