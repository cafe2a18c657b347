import type { Interaction } from "oidc-provider";
import { fositeError, resourceNotFound } from "../hydra-error.ts";
import { originalRequestUrl } from "../provider/offline-access-prompt.ts";
import { authorizationUrl, type ChallengeDeps } from "./challenge-deps.ts";

// Hydra's login and consent challenges are oidc-provider interaction uids: `login` prompts become
// login challenges, every other prompt a consent challenge.

export type ChallengeKind = "login" | "consent";

/** The challenge was used already; Hydra answers 410 with the original authorization URL. */
export class UsedChallengeError extends Error {
  override name = "UsedChallengeError";
  readonly redirectTo: string;

  constructor(redirectTo: string) {
    super("the challenge has been used already");
    this.redirectTo = redirectTo;
  }
}

function kindOf(promptName: string | undefined): ChallengeKind {
  return promptName === "login" ? "login" : "consent";
}

/** The unexpired, unused interaction behind a challenge of the given kind. */
export async function loadInteraction(
  deps: ChallengeDeps,
  challenge: string,
  kind: ChallengeKind,
): Promise<Interaction> {
  const interaction = await deps.provider().Interaction.find(challenge);
  if (interaction && kindOf(interaction.prompt.name) === kind) return interaction;
  if (interaction) throw resourceNotFound();
  // The provider hides used and expired interactions; the row tells which it was.
  const row = await deps.db
    .selectFrom("oauth2_payloads")
    .select(["payload", "consumed_at"])
    .where("model", "=", "Interaction")
    .where("id", "=", challenge)
    .executeTakeFirst();
  if (!row) throw resourceNotFound();
  const payload = JSON.parse(row.payload) as {
    prompt?: { name?: string };
    params?: Record<string, unknown>;
  };
  if (kindOf(payload.prompt?.name) !== kind) throw resourceNotFound();
  if (row.consumed_at) {
    throw new UsedChallengeError(originalRequestUrl(authorizationUrl(deps), payload.params ?? {}));
  }
  throw fositeError(
    "request_unauthorized",
    `The ${kind} request has expired, please try again.`,
    401,
  );
}

/** The interaction's authorization parameters as oidc-provider stored them. */
export function paramsOf(interaction: Interaction): Record<string, unknown> {
  return interaction.params;
}

export function requestUrlOf(deps: ChallengeDeps, interaction: Interaction): string {
  return originalRequestUrl(authorizationUrl(deps), paramsOf(interaction));
}

export function requestedScopeOf(interaction: Interaction): string[] {
  const scope = paramsOf(interaction).scope;
  return typeof scope === "string" ? scope.split(" ").filter((s) => s !== "") : [];
}

export function requestedAudienceOf(interaction: Interaction): string[] {
  const audience = paramsOf(interaction).audience;
  return typeof audience === "string" ? audience.split(" ").filter((a) => a !== "") : [];
}

export function clientIdOf(interaction: Interaction): string {
  return String(paramsOf(interaction).client_id);
}
