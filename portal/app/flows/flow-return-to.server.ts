import { readIdentityAnswer } from "@portal/client";
import type { ApiResponse } from "@portal/client";
import { isRecord } from "./node-guards.ts";

/**
 * Where a completed flow goes when the identity service's answer named no continuation:
 * the flow's own return_to, read back from the flow.
 */
export async function flowReturnTo<T>(
  fetchFlow: () => Promise<ApiResponse<T>>,
): Promise<string | undefined> {
  const answer = await readIdentityAnswer(fetchFlow);
  if (answer.status !== 200 || !isRecord(answer.body)) return undefined;
  const returnTo = answer.body.return_to;
  return typeof returnTo === "string" && returnTo !== "" ? returnTo : undefined;
}
