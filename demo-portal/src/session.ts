/** The part of a Kratos session the demo shows. */
export type SignedInPerson = {
  identityId: string;
  email: string;
  authenticatedAt: string;
  assuranceLevel: string;
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

function readPerson(body: unknown): SignedInPerson | undefined {
  if (!isRecord(body) || !isRecord(body.identity)) return undefined;
  const { identity } = body;
  const traits = isRecord(identity.traits) ? identity.traits : {};
  if (typeof identity.id !== "string") return undefined;
  return {
    identityId: identity.id,
    email: typeof traits.email === "string" ? traits.email : "",
    authenticatedAt: typeof body.authenticated_at === "string" ? body.authenticated_at : "",
    assuranceLevel:
      typeof body.authenticator_assurance_level === "string"
        ? body.authenticator_assurance_level
        : "",
  };
}

/**
 * Asks the identity service who the browser's cookies belong to. Cookies on `localhost` are
 * shared across ports, so the portal's session cookie reaches this app too; until OAuth2 sign-in
 * exists this is how the stand-in agency product learns who is signed in.
 */
export async function whoIsSignedIn(
  identityPublicUrl: string,
  cookieHeader: string | undefined,
): Promise<SignedInPerson | undefined> {
  if (!cookieHeader) return undefined;
  const response = await fetch(`${identityPublicUrl}/sessions/whoami`, {
    headers: { cookie: cookieHeader, accept: "application/json" },
  });
  if (response.status !== 200) return undefined;
  return readPerson(await response.json());
}
