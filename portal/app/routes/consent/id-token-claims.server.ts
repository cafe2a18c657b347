import { isRecord } from "../../flows/node-guards.ts";

/** What the claims are built from: the signed-in identity, as /sessions/whoami returns it. */
export interface ClaimSource {
  traits: unknown;
  verifiable_addresses?: readonly { value: string; verified: boolean; via: string }[];
}

/**
 * The ID-token claims (OIDC Core §5.4) the granted scopes allow, from the identity's traits:
 * `email` → email, email_verified; `profile` → name, given_name, family_name (when the traits
 * hold a name); `phone` → phone_number, phone_number_verified. Nothing else leaves the portal.
 */
export function idTokenClaims(
  grantedScopes: readonly string[],
  identity: ClaimSource,
): Record<string, unknown> {
  const traits = isRecord(identity.traits) ? identity.traits : {};
  const claims: Record<string, unknown> = {};
  const verified = (value: string) =>
    (identity.verifiable_addresses ?? []).some(
      (address) => address.verified && address.value.toLowerCase() === value.toLowerCase(),
    );
  if (grantedScopes.includes("email") && typeof traits.email === "string") {
    claims.email = traits.email;
    claims.email_verified = verified(traits.email);
  }
  if (grantedScopes.includes("phone") && typeof traits.phone === "string") {
    claims.phone_number = traits.phone;
    claims.phone_number_verified = verified(traits.phone);
  }
  if (grantedScopes.includes("profile")) Object.assign(claims, profileClaims(traits.name));
  return claims;
}

function profileClaims(name: unknown): Record<string, string> {
  if (typeof name === "string" && name.trim() !== "") return { name: name.trim() };
  if (!isRecord(name)) return {};
  const given = typeof name.first === "string" ? name.first.trim() : "";
  const family = typeof name.last === "string" ? name.last.trim() : "";
  const claims: Record<string, string> = {};
  if (given) claims.given_name = given;
  if (family) claims.family_name = family;
  const full = [given, family].filter(Boolean).join(" ");
  if (full) claims.name = full;
  return claims;
}
