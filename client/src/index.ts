export { createIdentityClient } from "./identity-client.ts";
export type { IdentityClient, IdentityClientOptions } from "./identity-client.ts";
export type { ApiResponse } from "@ory/client-fetch";
export { readIdentityAnswer, readIdentityResponse } from "./identity-response.ts";
export type { IdentityAnswer, IdentityResponse } from "./identity-response.ts";
export {
  FlowErrorFromJSON,
  LoginFlowFromJSON,
  RegistrationFlowFromJSON,
  SessionFromJSON,
  UiNodeFromJSON,
} from "@ory/client-fetch";
export type {
  ContinueWith,
  FlowError,
  LoginFlow,
  LogoutFlow,
  RegistrationFlow,
  Session,
  SuccessfulNativeLogin,
  SuccessfulNativeRegistration,
  UiContainer,
  UiNode,
  UiNodeAnchorAttributes,
  UiNodeAttributes,
  UiNodeImageAttributes,
  UiNodeInputAttributes,
  UiNodeScriptAttributes,
  UiNodeTextAttributes,
  UiText,
  UpdateLoginFlowBody,
  UpdateRegistrationFlowBody,
} from "@ory/client-fetch";
