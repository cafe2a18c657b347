import type { Identity } from "../identity/identity.ts";
import { methodFields } from "../selfservice/method-fields.ts";
import { upsertNode, type NodeGroup, type UiNode } from "../ui/nodes.ts";
import {
  clearInput,
  missingValue,
  runMethodStep,
  stringValue,
  type MethodForm,
} from "./method-step.ts";
import { sessionIdentityOf, type LoginStep, type LoginStrategy } from "./login-strategy.ts";

/** A second factor the user types as one code (authenticator app, backup code). */
export interface TypedCodeFactor {
  /** The credential type, also the submitted `method` and the AMR method. */
  id: string;
  group: NodeGroup;
  /** The input the code is typed into. */
  field: string;
  configured(identity: Identity): boolean;
  codeNode(): UiNode;
  submitNode(): UiNode;
  /** Checks the typed code as sent (limits included); throws for the form when it is wrong. */
  verify(step: LoginStep, identity: Identity, typed: string): Promise<void>;
}

/**
 * The login strategy of a typed-code factor: offered (code input and submit button) when the
 * identity has the factor, responsible for its `method`, the code required (4000002) before the
 * CSRF check, and cleared from the form after an error.
 */
export function typedCodeStrategy(factor: TypedCodeFactor): LoginStrategy {
  const form: MethodForm = {
    fields: methodFields({ [factor.field]: "string" }),
    missing: (values) =>
      (stringValue(values[factor.field]) ?? "").trim() === "" ? [missingValue(factor.field)] : [],
    rerender: (flow) => clearInput(flow, factor.field),
  };
  return {
    id: factor.id,
    group: factor.group,
    aal: "aal2",
    configured: (identity) => factor.configured(identity),
    responsible: (body) => body.string("method") === factor.id,
    populate(_ctx, flow, identity) {
      if (!identity || !factor.configured(identity)) return;
      upsertNode(flow.ui, factor.codeNode());
      flow.ui.nodes.push(factor.submitNode());
    },
    async submit(step) {
      const identity = sessionIdentityOf(step);
      await runMethodStep(step, form, (values) =>
        factor.verify(step, identity, stringValue(values[factor.field]) ?? ""),
      );
      return { kind: "authenticated", identity };
    },
  };
}
