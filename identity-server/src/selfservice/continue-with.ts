// The `continue_with` items Kratos puts in success answers (selfservice/flow/continue_with.go), shaped
// exactly as its OpenAPI `continueWith` one-of.

export interface ContinueWithRedirectBrowserTo {
  action: "redirect_browser_to";
  redirect_browser_to: string;
}

export interface ContinueWithSetOrySessionToken {
  action: "set_ory_session_token";
  ory_session_token: string;
}

export interface ContinueWithVerificationUi {
  action: "show_verification_ui";
  /** `url` only for browser flows; native apps show their own screen. */
  flow: { id: string; verifiable_address: string; url?: string };
}

export interface ContinueWithSettingsUi {
  action: "show_settings_ui";
  flow: { id: string; url?: string };
}

export type ContinueWith =
  | ContinueWithRedirectBrowserTo
  | ContinueWithSetOrySessionToken
  | ContinueWithVerificationUi
  | ContinueWithSettingsUi;

export const redirectBrowserTo = (url: string): ContinueWithRedirectBrowserTo => ({
  action: "redirect_browser_to",
  redirect_browser_to: url,
});

export const setOrySessionToken = (token: string): ContinueWithSetOrySessionToken => ({
  action: "set_ory_session_token",
  ory_session_token: token,
});

export function showVerificationUi(
  id: string,
  address: string,
  url: string | undefined,
): ContinueWithVerificationUi {
  return {
    action: "show_verification_ui",
    flow: { id, verifiable_address: address, ...(url ? { url } : {}) },
  };
}

export const showSettingsUi = (id: string, url: string): ContinueWithSettingsUi => ({
  action: "show_settings_ui",
  flow: { id, url },
});
