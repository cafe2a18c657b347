import type { ServerContext } from "../../context.ts";
import type { Flow } from "../../selfservice/flow.ts";
import { traitNode, upsertNode } from "../../ui/nodes.ts";

/** The profile strategy's part of one-step registration: one input per trait, group default. */
export function populateTraitNodes(ctx: ServerContext, flow: Flow): void {
  for (const path of ctx.schema.traitPaths) upsertNode(flow.ui, traitNode(path, "default"));
}
