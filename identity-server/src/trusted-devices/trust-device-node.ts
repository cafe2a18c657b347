import type { ServerContext } from "../context.ts";
import { uiText } from "../text/messages.ts";
import { inputNode, type InputNode } from "../ui/nodes.ts";

/** Days in the trusted-device lifespan, to two decimals ("30" for the default 720h). */
function lifespanDays(ctx: ServerContext): number {
  return Number((ctx.config.secondFactor.trustedDeviceLifespanMs / 86_400_000).toFixed(2));
}

/**
 * Our checkbox on second-factor login forms (group default, so it goes with whichever method is
 * submitted): ticked (`trust_device=true`), a successful second factor makes this browser a
 * trusted device. Label 9010001 "Trust this device for {days} days".
 */
export function trustDeviceNode(ctx: ServerContext): InputNode {
  const days = lifespanDays(ctx);
  return inputNode({
    name: "trust_device",
    type: "checkbox",
    group: "default",
    value: "true",
    label: uiText(9010001, { days }),
  });
}
