// The OAuth2 service's public surface, for the identity server and its login flow.
export {
  startOAuth2Service,
  type OAuth2LoginRequests,
  type OAuth2ServiceOptions,
  type RunningOAuth2Service,
} from "./oauth2-service.ts";
export { startOAuth2WithIdentityServer } from "./start-with-identity-server.ts";
export type { OAuth2LoginRequest, RedirectTo } from "./challenges/login-requests.ts";
export type { AcceptLoginBody, RejectBody } from "./challenges/request-bodies.ts";
export { UsedChallengeError } from "./challenges/interactions.ts";
export { HydraError, isHydraError } from "./hydra-error.ts";
export type { OAuth2Config } from "./oauth2-config.ts";
