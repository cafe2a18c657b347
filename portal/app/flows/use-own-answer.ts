import { useState } from "react";
import { useNavigation } from "react-router";

type Phase = "idle" | "sent" | "busy";

/**
 * Counts the answers to this one form's submissions: `sent()` is called when its submit event
 * goes through, and `key` changes once the navigation it started has settled (an action's
 * answer or the page a success redirected to). Other forms of the page (the settings cards)
 * submitting leave it alone, so one card's answer does not wipe another card's messages.
 */
export function useOwnAnswer(): { key: number; sent: () => void } {
  const navigation = useNavigation();
  const [state, setState] = useState<{ key: number; phase: Phase }>({ key: 0, phase: "idle" });
  let next = state;
  if (state.phase === "sent" && navigation.state !== "idle") next = { ...state, phase: "busy" };
  else if (state.phase === "busy" && navigation.state === "idle") {
    next = { key: state.key + 1, phase: "idle" };
  }
  // Adjusting state while rendering, so the answer and the reset show in the same render.
  if (next !== state) setState(next);
  return { key: next.key, sent: () => setState((current) => ({ ...current, phase: "sent" })) };
}
