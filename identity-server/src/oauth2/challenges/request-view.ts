import type { Interaction } from "oidc-provider";
import type { ChallengeDeps } from "./challenge-deps.ts";
import { clientView } from "./client-view.ts";
import {
  clientIdOf,
  paramsOf,
  requestUrlOf,
  requestedAudienceOf,
  requestedScopeOf,
} from "./interactions.ts";
import { oidcContextFrom, type OidcContext } from "./oidc-context.ts";

/** What Hydra's login and consent requests both say about the authorization request. */
export interface RequestView {
  challenge: string;
  requested_scope: string[];
  requested_access_token_audience: string[];
  oidc_context: OidcContext;
  client: Record<string, unknown>;
  request_url: string;
}

export async function requestViewOf(
  deps: ChallengeDeps,
  interaction: Interaction,
  challenge: string,
): Promise<RequestView> {
  return {
    challenge,
    requested_scope: requestedScopeOf(interaction),
    requested_access_token_audience: requestedAudienceOf(interaction),
    oidc_context: oidcContextFrom(paramsOf(interaction)),
    client: await clientView(deps.db, clientIdOf(interaction)),
    request_url: requestUrlOf(deps, interaction),
  };
}
