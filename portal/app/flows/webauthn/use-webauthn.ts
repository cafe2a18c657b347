import type { UiNode } from "@portal/client";
import { useEffect, useState } from "react";
import type { RefObject } from "react";
import type { CeremonyFailure } from "./ceremonies.ts";
import { onFirstInteraction } from "../../ui/first-interaction.ts";
import { isHiddenInputNode } from "../node-guards.ts";
import { hasTriggers, triggerOf } from "./triggers.ts";

type Ceremonies = typeof import("./ceremonies.ts");

let loading: Promise<Ceremonies> | undefined;

/** The WebAuthn module (and @simplewebauthn/browser): its own chunk, read once when needed. */
function ceremonies(): Promise<Ceremonies> {
  loading ??= import("./ceremonies.ts");
  return loading;
}

/**
 * A form's WebAuthn triggers. Only a form whose nodes carry them loads the module, on the
 * person's first interaction with the page (so a click runs without waiting for the network,
 * and the passkey autofill starts before the field's suggestions show); other forms never
 * load it. `run` is what a trigger button calls; `failure` is the message to
 * show after a cancelled or failed ceremony.
 */
export function useWebAuthn(form: RefObject<HTMLFormElement | null>, nodes: readonly UiNode[]) {
  const [failure, setFailure] = useState<CeremonyFailure>();
  const needed = hasTriggers(nodes);
  const onLoad = nodes.map((node) => triggerOf(node, "load")).find(Boolean);
  // The autofill starts again when the flow's hidden values (its challenge) change.
  const loadKey =
    onLoad &&
    nodes.map((node) => (isHiddenInputNode(node) ? String(node.attributes.value) : "")).join();

  const start = (trigger: string) =>
    ceremonies().then((module) => form.current && module.runTrigger(trigger, form.current));

  useEffect(() => {
    if (!needed) return;
    // On the person's first interaction, not at hydration: the pointer, a key or a focus comes
    // before a click on a button and before the identifier field shows its suggestions, and a
    // sign-in page nobody touches does not load the module (DESIGN §6 budget).
    return onFirstInteraction(() => {
      void ceremonies();
      if (onLoad) void start(onLoad);
    });
    // The form (one flow, one challenge) is what the effect belongs to; its ref is read when it runs.
  }, [needed, loadKey]);

  const run = (trigger: string) => {
    setFailure(undefined);
    void start(trigger).then((outcome) => {
      setFailure(outcome ?? undefined);
      // The button replaced the autofill's pending request: offer the autofill again.
      if (outcome && onLoad) void start(onLoad);
    });
  };
  return { run, failure };
}
