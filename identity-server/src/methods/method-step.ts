import type { FastifyReply, FastifyRequest } from "fastify";
import type { ServerContext } from "../context.ts";
import { ensureCsrf } from "../selfservice/csrf-check.ts";
import type { Flow } from "../selfservice/flow.ts";
import { csrfTokenFor } from "../http/csrf.ts";
import type { FieldSpec, FlowBody } from "../http/flow-body.ts";
import { uiText } from "../text/messages.ts";
import { csrfNode, findInput, setNodeValue, upsertNode } from "../ui/nodes.ts";
import { ValidationError, type FieldMessage } from "../ui/validation-error.ts";

/** One submission of a flow, as every strategy (login, registration) receives it. */
export interface MethodStep {
  ctx: ServerContext;
  request: FastifyRequest;
  reply: FastifyReply;
  flow: Flow;
  /** The submission, read once by the flow. */
  body: FlowBody;
}

/** How one strategy's form is decoded, checked and shown again after an error. */
export interface MethodForm {
  /** The strategy's payload schema. */
  fields: readonly FieldSpec[];
  /** Values the schema requires (Kratos validates them while decoding, before the CSRF check). */
  missing?(values: Record<string, unknown>): FieldMessage[];
  /** Prepares the form for re-rendering after an error: secrets cleared, the identifier kept. */
  rerender?(flow: Flow, values: Record<string, unknown> | undefined): void;
}

/** A missing required value (4000002), for `MethodForm.missing`. */
export function missingValue(field: string): FieldMessage {
  return { field, message: uiText(4000002, { property: field }) };
}

/** Empties an input node's value (a typed secret is never shown back). */
export function clearInput(flow: Flow, name: string): void {
  const node = findInput(flow.ui, name);
  if (node) setNodeValue(node, undefined);
}

/** A decoded string value, or undefined. */
export function stringValue(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/**
 * What every login and registration strategy's submission goes through, as Kratos' strategies each
 * begin and its flows' error handlers end: the strategy's fields are decoded from the body, the required ones
 * checked, then the CSRF token; `run` does the strategy's own work (limits, verification). Whatever
 * is thrown is answered with the form, so the form is prepared for re-rendering and a browser's
 * form gets a fresh CSRF token.
 */
export async function runMethodStep<T>(
  step: MethodStep,
  form: MethodForm,
  run: (values: Record<string, unknown>) => Promise<T>,
): Promise<T> {
  const { ctx, request, reply, flow } = step;
  let values: Record<string, unknown> | undefined;
  try {
    values = step.body.fields(form.fields);
    const missing = form.missing?.(values) ?? [];
    if (missing.length > 0) throw new ValidationError(missing);
    ensureCsrf(ctx, request, flow, stringValue(values.csrf_token));
    return await run(values);
  } catch (error) {
    form.rerender?.(flow, values);
    if (flow.type === "browser") {
      upsertNode(flow.ui, csrfNode(csrfTokenFor(request, reply, ctx.cookies)));
    }
    throw error;
  }
}
