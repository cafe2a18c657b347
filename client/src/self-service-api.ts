import { BaseAPI, JSONApiResponse } from "@ory/client-fetch";
import type {
  ApiResponse,
  InitOverrideFunction,
  UpdateLoginFlowBody,
  UpdateSettingsFlowBody,
  UpdateVerificationFlowBody,
} from "@ory/client-fetch";

/**
 * A login submission plus the identity service's own field: `trust_device` makes a successful
 * second factor trust this browser (sets the `ory_trusted_device` cookie).
 */
export type PortalLoginBody = UpdateLoginFlowBody & { trust_device?: boolean };

/** Turns codes by e-mail/SMS as a second factor on or off for one verified address. */
export interface CodeMfaSettingsBody {
  method: "code";
  code_mfa_enable?: string;
  code_mfa_disable?: string;
  csrf_token?: string;
}

/** Stops trusting one of the identity's trusted devices (recognised by its own field). */
export interface UntrustDeviceSettingsBody {
  totp_device_untrust: string;
  csrf_token?: string;
}

export type PortalSettingsBody =
  UpdateSettingsFlowBody | CodeMfaSettingsBody | UntrustDeviceSettingsBody;

/**
 * Resending a verification code to a phone number: spec §7's resend button posts `method: "code"`
 * with the number in `sms` (the SDK's model only knows `email`).
 */
export interface SmsResendVerificationBody {
  method: "code";
  sms: string;
  csrf_token?: string;
}

export type PortalVerificationBody = UpdateVerificationFlowBody | SmsResendVerificationBody;

/**
 * A browser's form forwarded as it was posted, the way Kratos' own UIs submit: the identity
 * service decides by `method`, or by a button's own field, which strategy answers.
 */
export type ForwardedFields = Readonly<Record<string, unknown>>;

/**
 * Submissions the generated SDK cannot make: its serialisers keep only the fields of Kratos'
 * own methods, so `trust_device`, `code_mfa_*`, `totp_device_untrust` and `sms` would be dropped. The
 * body goes out as JSON exactly as given, through the same configuration (base path, headers,
 * manual redirects) as the SDK's own calls, and answers the same way (non-2xx throw
 * ResponseError), so readIdentityAnswer reads them like any other call.
 */
export class SelfServiceApi extends BaseAPI {
  async updateLoginFlowRaw(
    parameters: { flow: string; body: PortalLoginBody | ForwardedFields },
    initOverrides?: RequestInit | InitOverrideFunction,
  ): Promise<ApiResponse<unknown>> {
    return this.submit("/self-service/login", parameters.flow, parameters.body, initOverrides);
  }

  async updateSettingsFlowRaw(
    parameters: { flow: string; body: PortalSettingsBody | ForwardedFields },
    initOverrides?: RequestInit | InitOverrideFunction,
  ): Promise<ApiResponse<unknown>> {
    return this.submit("/self-service/settings", parameters.flow, parameters.body, initOverrides);
  }

  async updateVerificationFlowRaw(
    parameters: { flow: string; body: PortalVerificationBody },
    initOverrides?: RequestInit | InitOverrideFunction,
  ): Promise<ApiResponse<unknown>> {
    return this.submit(
      "/self-service/verification",
      parameters.flow,
      parameters.body,
      initOverrides,
    );
  }

  private async submit(
    path: string,
    flow: string,
    body: object,
    initOverrides: RequestInit | InitOverrideFunction | undefined,
  ): Promise<ApiResponse<unknown>> {
    const response = await this.request(
      {
        path,
        method: "POST",
        headers: { "Content-Type": "application/json" },
        query: { flow },
        body,
      },
      initOverrides,
    );
    return new JSONApiResponse<unknown>(response);
  }
}
