export { browserBasePath, createIdentityClient } from "./identity-client.ts";
export type {
  IdentityClient,
  IdentityClientOptions,
  OAuth2Credentials,
} from "./identity-client.ts";
export type { ClientLogger, FingerprintGetter } from "./request-headers.ts";
export { requiredParameterMessage } from "./required-parameters.ts";
export { RequiredError } from "@ory/client-fetch";
export type { ApiResponse } from "@ory/client-fetch";
export { SelfServiceApi } from "./self-service-api.ts";
export type {
  CodeMfaSettingsBody,
  ForwardedFields,
  PortalLoginBody,
  PortalSettingsBody,
  PortalVerificationBody,
  SmsResendVerificationBody,
  UntrustDeviceSettingsBody,
} from "./self-service-api.ts";
export { readIdentityAnswer, readIdentityResponse } from "./identity-response.ts";
export type { IdentityAnswer, IdentityResponse } from "./identity-response.ts";
export {
  FlowErrorFromJSON,
  LoginFlowFromJSON,
  RecoveryFlowFromJSON,
  RegistrationFlowFromJSON,
  SessionFromJSON,
  SettingsFlowFromJSON,
  UiNodeFromJSON,
  VerificationFlowFromJSON,
} from "@ory/client-fetch";
export type {
  ContinueWith,
  FlowError,
  LoginFlow,
  LogoutFlow,
  RecoveryFlow,
  RegistrationFlow,
  Session,
  SessionDevice,
  SettingsFlow,
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
  UpdateRecoveryFlowBody,
  UpdateRegistrationFlowBody,
  UpdateSettingsFlowBody,
  UpdateVerificationFlowBody,
  VerifiableIdentityAddress,
  VerificationFlow,
} from "@ory/client-fetch";
