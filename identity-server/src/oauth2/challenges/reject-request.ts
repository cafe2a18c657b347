import type { ChallengeDeps } from "./challenge-deps.ts";
import { answerChallenge } from "./challenge-verifiers.ts";
import { loadInteraction, type ChallengeKind } from "./interactions.ts";
import { readRejectBody, rejectionResult } from "./request-bodies.ts";

/**
 * Hydra's `PUT …/{login|consent}/reject`: the interaction ends with an OAuth2 error and the browser
 * goes back to the authorization endpoint (with the verifier), which sends it on to the client
 * with that error.
 */
export async function rejectRequest(
  deps: ChallengeDeps,
  challenge: string,
  kind: ChallengeKind,
  body: unknown,
): Promise<{ redirect_to: string }> {
  const reject = readRejectBody(body);
  const interaction = await loadInteraction(deps, challenge, kind);
  return answerChallenge(
    deps,
    interaction,
    kind,
    rejectionResult(reject, `${kind} request denied`),
  );
}
