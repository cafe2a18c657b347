import { useState } from "react";
import { useLocation, useNavigation } from "react-router";

type Seen = { answerKey: string; locationKey: string; submitted: boolean };

function isSubmission(formMethod: string | undefined): boolean {
  return formMethod !== undefined && formMethod.toUpperCase() !== "GET";
}

/**
 * A key that changes only when the answer to a form submission on this page has arrived (the
 * action's result, or the page a submission was redirected to). Password inputs are keyed by
 * it so that a failed submission empties them, as a reload does without JavaScript. Other
 * location changes (a query-only navigation such as ?method= or closing a dialog, a late
 * navigation landing while the user types) keep what was typed: keying by every location
 * change wiped passwords the user had typed in the meantime.
 */
export function useAnswerKey(): string {
  const navigation = useNavigation();
  const { key } = useLocation();
  const [seen, setSeen] = useState<Seen>({ answerKey: key, locationKey: key, submitted: false });
  let next = seen;
  if (isSubmission(navigation.formMethod) && !seen.submitted) {
    next = { ...seen, submitted: true };
  } else if (navigation.state === "idle" && key !== seen.locationKey) {
    next = {
      answerKey: seen.submitted ? key : seen.answerKey,
      locationKey: key,
      submitted: false,
    };
  }
  // Adjusting state while rendering (React's pattern for state derived from changing input).
  if (next !== seen) setSeen(next);
  return next.answerKey;
}
