import { hash, randomInt } from "node:crypto";
import { identityJson, type Identity } from "../identity/identity.ts";

export interface AuthenticationMethod {
  method: string;
  aal: "aal1" | "aal2";
  completedAt: Date;
  /** Kratos' provider field; our trusted-device entry says "trusted_device" here. */
  provider?: string | undefined;
}

export interface SessionDevice {
  id: string;
  ipAddress: string | null;
  userAgent: string | null;
  location: string | null;
}

export interface Session {
  id: string;
  identityId: string;
  active: boolean;
  aal: "aal0" | "aal1" | "aal2";
  authenticationMethods: AuthenticationMethod[];
  issuedAt: Date;
  authenticatedAt: Date;
  expiresAt: Date;
  devices: SessionDevice[];
  createdAt: Date;
  updatedAt: Date;
}

const alphanumeric = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** `prefix` + 32 random alphanumerics, the shape of Kratos' `ory_st_…` and `ory_lo_…` tokens. */
export function randomToken(prefix: string): string {
  let out = prefix;
  for (let i = 0; i < 32; i++) out += alphanumeric[randomInt(alphanumeric.length)];
  return out;
}

/** Tokens are stored only as their SHA-256, so a database leak does not leak live sessions. */
export function hashToken(token: string): string {
  return hash("sha256", token, "hex");
}

/** aal2 needs an aal1 and an aal2 factor; no factor at all is aal0 (Kratos' rule). */
export function assuranceLevel(methods: AuthenticationMethod[]): Session["aal"] {
  if (methods.length === 0) return "aal0";
  const has1 = methods.some((m) => m.aal === "aal1");
  const has2 = methods.some((m) => m.aal === "aal2");
  return has1 && has2 ? "aal2" : "aal1";
}

export function isSessionActive(session: Session, identity: Identity, now: Date): boolean {
  return session.active && session.expiresAt > now && identity.state === "active";
}

export interface SessionJsonOptions {
  /** Admin API: the identity carries metadata_admin (still no credentials). */
  admin?: boolean;
  /** false: devices not expanded (admin lists without `expand=devices`). */
  devices?: boolean;
}

/** The session's JSON (`session` in the OpenAPI spec); the identity never carries credentials. */
export function sessionJson(
  session: Session,
  identity: Identity | undefined,
  publicBaseUrl: string,
  now: Date,
  options: SessionJsonOptions = {},
): Record<string, unknown> {
  const identityOptions = {
    publicBaseUrl,
    ...(options.admin ? { admin: { includeConfigFor: [], withoutCredentials: true } } : {}),
  };
  return {
    id: session.id,
    active: identity
      ? isSessionActive(session, identity, now)
      : session.active && session.expiresAt > now,
    expires_at: session.expiresAt.toISOString(),
    authenticated_at: session.authenticatedAt.toISOString(),
    authenticator_assurance_level: session.aal,
    authentication_methods: session.authenticationMethods.map((m) => ({
      method: m.method,
      aal: m.aal,
      completed_at: m.completedAt.toISOString(),
      ...(m.provider ? { provider: m.provider } : {}),
    })),
    issued_at: session.issuedAt.toISOString(),
    ...(identity ? { identity: identityJson(identity, identityOptions) } : {}),
    devices: (options.devices === false ? [] : session.devices).map((d) => ({
      id: d.id,
      ip_address: d.ipAddress,
      user_agent: d.userAgent,
      location: d.location,
    })),
  };
}
