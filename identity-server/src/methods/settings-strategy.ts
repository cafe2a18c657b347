import type { FastifyReply, FastifyRequest } from "fastify";
import type { ServerContext } from "../context.ts";
import type { Flow } from "../selfservice/flow.ts";
import type { FieldSpec, FlowBody } from "../http/flow-body.ts";
import type { Identity } from "../identity/identity.ts";
import type { Session } from "../session/session.ts";
import type { Executor } from "../store/schema.ts";
import type { NodeGroup } from "../ui/nodes.ts";
import type { SettingsOutcome } from "./settings-outcome.ts";

/** One submission of a settings flow, as every settings strategy receives it. */
export interface SettingsStep {
  ctx: ServerContext;
  request: FastifyRequest;
  reply: FastifyReply;
  flow: Flow;
  /** The submission, read once by the flow. */
  body: FlowBody;
  session: Session;
  identity: Identity;
}

/** What a strategy needs to add its group to a settings form. */
interface SettingsForm {
  ctx: ServerContext;
  /** Where stored state is read, so a caller inside a transaction sees its own changes. */
  db: Executor;
  request: FastifyRequest;
  flow: Flow;
  identity: Identity;
  csrfToken: string;
}

/**
 * One part of the settings form (Kratos' settings.Strategy). The settings flow knows no strategy by
 * name: every one in the registry (settings-strategies.ts) adds its group, and a submission goes to
 * the first one responsible for it.
 */
export interface SettingsStrategy {
  readonly id: string;
  /** The node group of its form. */
  readonly group: NodeGroup;
  /**
   * The fields it is recognised by, beyond `method`; decoded together for every strategy before
   * one is chosen (profile and password are recognised by `method` alone).
   */
  readonly selectorFields: readonly FieldSpec[];
  /** Whether the submission (decoded with every strategy's selector fields) is for it. */
  responsible(values: Record<string, unknown>): boolean;
  populate(form: SettingsForm): void | Promise<void>;
  /** Handles a submission it is responsible for (handleSettingsSubmission does the common part). */
  update(step: SettingsStep): Promise<SettingsOutcome>;
}
