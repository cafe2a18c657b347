import { z } from "zod";
import { commaList, flag } from "../../config/env-values.ts";

// The relying party of both WebAuthn strategies (Kratos' `selfservice.methods.passkey.config.rp`
// and `selfservice.methods.webauthn.config.rp`, one set here since both run on the same site).

export interface WebAuthnConfig {
  /** The RP ID: the registrable domain the credentials are scoped to (no scheme, no port). */
  rpId: string;
  /** The origins a ceremony may come from (`clientDataJSON.origin`), e.g. https://portal.example. */
  rpOrigins: string[];
  /** The name authenticators show when a credential is created. */
  rpDisplayName: string;
  /** Kratos' `webauthn.config.passwordless`: security keys as a first factor too. Off by default. */
  passwordless: boolean;
}

// A DNS name (lower case, dots between labels) or `localhost`: what an RP ID may be. IP addresses
// cannot be RP IDs in browsers.
const rpIdPattern =
  /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

/** The environment variables of the WebAuthn relying party; `loadConfig` validates them with the rest. */
export const webAuthnEnvShape = {
  IDENTITY_WEBAUTHN_RP_ID: z
    .string()
    .trim()
    .toLowerCase()
    .refine(
      (value) => rpIdPattern.test(value) && !/^[0-9.]+$/.test(value),
      "must be a domain name such as portal.example (no scheme, port or path)",
    )
    .optional(),
  IDENTITY_WEBAUTHN_RP_ORIGINS: z.string().transform(commaList).optional(),
  IDENTITY_WEBAUTHN_RP_DISPLAY_NAME: z.string().trim().min(1).optional(),
  IDENTITY_WEBAUTHN_PASSWORDLESS: flag.default(false),
};

/** The WebAuthn variables and the one general variable their defaults come from. */
type WebAuthnEnv = z.infer<z.ZodObject<typeof webAuthnEnvShape>> & {
  IDENTITY_UI_BASE_URL: string;
};

function defaultRpId(e: WebAuthnEnv): string {
  return e.IDENTITY_WEBAUTHN_RP_ID ?? new URL(e.IDENTITY_UI_BASE_URL).hostname;
}

function rpOriginsOf(e: WebAuthnEnv): string[] {
  return e.IDENTITY_WEBAUTHN_RP_ORIGINS ?? [new URL(e.IDENTITY_UI_BASE_URL).origin];
}

/** Whether `host` is the RP ID or one of its subdomains (WebAuthn's "registrable domain suffix"). */
function hostMatchesRpId(host: string, rpId: string): boolean {
  return host === rpId || host.endsWith(`.${rpId}`);
}

/**
 * Set explicitly, every origin must be an http(s) origin (no path) whose host is the RP ID or below
 * it, and plain http is only for localhost: browsers refuse WebAuthn anywhere else, so such a
 * configuration could never sign anyone in. The defaults (both from IDENTITY_UI_BASE_URL) always
 * agree with each other and are not checked, so a plain-http portal still starts (its other
 * methods work; browsers just will not offer WebAuthn there).
 */
export function checkWebAuthnEnv(
  e: {
    IDENTITY_UI_BASE_URL?: string | undefined;
    IDENTITY_WEBAUTHN_RP_ID?: string | undefined;
    IDENTITY_WEBAUTHN_RP_ORIGINS?: string[] | undefined;
  },
  ctx: z.RefinementCtx,
): void {
  if (!e.IDENTITY_WEBAUTHN_RP_ID && !e.IDENTITY_WEBAUTHN_RP_ORIGINS) return;
  if (!e.IDENTITY_UI_BASE_URL || !URL.canParse(e.IDENTITY_UI_BASE_URL)) return;
  const env = e as WebAuthnEnv;
  const rpId = defaultRpId(env);
  const variable = e.IDENTITY_WEBAUTHN_RP_ORIGINS
    ? "IDENTITY_WEBAUTHN_RP_ORIGINS"
    : "IDENTITY_UI_BASE_URL";
  const origins = rpOriginsOf(env);
  if (origins.length === 0) {
    ctx.addIssue({ code: "custom", path: [variable], message: "must list at least one origin" });
  }
  for (const origin of origins) {
    const url = URL.canParse(origin) ? new URL(origin) : undefined;
    if (!url || !/^https?:$/.test(url.protocol) || url.origin !== origin.replace(/\/$/, "")) {
      ctx.addIssue({
        code: "custom",
        path: [variable],
        message: `"${origin}" is not an origin like https://portal.example (scheme, host and port only)`,
      });
    } else if (!hostMatchesRpId(url.hostname, rpId)) {
      ctx.addIssue({
        code: "custom",
        path: [e.IDENTITY_WEBAUTHN_RP_ID ? "IDENTITY_WEBAUTHN_RP_ID" : variable],
        message: `the origin ${url.origin} is not on the relying party id "${rpId}" or a subdomain of it`,
      });
    } else if (
      e.IDENTITY_WEBAUTHN_RP_ORIGINS &&
      url.protocol === "http:" &&
      url.hostname !== "localhost"
    ) {
      ctx.addIssue({
        code: "custom",
        path: [variable],
        message: `${url.origin}: browsers only allow WebAuthn over https (or http://localhost)`,
      });
    }
  }
}

export function webAuthnConfigFrom(e: WebAuthnEnv): WebAuthnConfig {
  const rpId = defaultRpId(e);
  return {
    rpId,
    rpOrigins: rpOriginsOf(e).map((origin) => new URL(origin).origin),
    rpDisplayName: e.IDENTITY_WEBAUTHN_RP_DISPLAY_NAME ?? rpId,
    passwordless: e.IDENTITY_WEBAUTHN_PASSWORDLESS,
  };
}
