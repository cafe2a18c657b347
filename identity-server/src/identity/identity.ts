export interface VerifiableAddress {
  id: string;
  value: string;
  verified: boolean;
  via: "email" | "sms";
  status: "pending" | "sent" | "completed";
  verifiedAt: Date | undefined;
  createdAt: Date;
  updatedAt: Date;
}

export interface RecoveryAddress {
  id: string;
  value: string;
  via: "email" | "sms";
  createdAt: Date;
  updatedAt: Date;
}

export interface Credential {
  id: string;
  type: string;
  identifiers: string[];
  config: Record<string, unknown>;
  version: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface Identity {
  id: string;
  schemaId: string;
  state: "active" | "inactive";
  stateChangedAt: Date | undefined;
  traits: Record<string, unknown>;
  verifiableAddresses: VerifiableAddress[];
  recoveryAddresses: RecoveryAddress[];
  credentials: Credential[];
  metadataPublic: unknown;
  metadataAdmin: unknown;
  createdAt: Date;
  updatedAt: Date;
}

/** The identity's credential of one type (Kratos keeps at most one per type). */
export function credentialOf(identity: Identity, type: string): Credential | undefined {
  return identity.credentials.find((c) => c.type === type);
}

export interface IdentityJsonOptions {
  publicBaseUrl: string;
  /**
   * Admin responses include metadata_admin and credentials (config only for the listed types);
   * sessions on the admin API carry the identity without credentials.
   */
  admin?: { includeConfigFor: string[]; withoutCredentials?: boolean } | undefined;
}

/** `PUB/schemas/<base64url(schema id)>`, as Kratos advertises the traits schema. */
function schemaUrl(publicBaseUrl: string, schemaId: string): string {
  return `${publicBaseUrl}/schemas/${Buffer.from(schemaId).toString("base64url")}`;
}

/** The identity's public JSON, field for field as Kratos' `identity`. */
export function identityJson(
  identity: Identity,
  options: IdentityJsonOptions,
): Record<string, unknown> {
  const json: Record<string, unknown> = { id: identity.id };
  if (options.admin && !options.admin.withoutCredentials) {
    const credentials: Record<string, unknown> = {};
    for (const credential of identity.credentials) {
      credentials[credential.type] = {
        type: credential.type,
        identifiers: credential.identifiers,
        ...(options.admin.includeConfigFor.includes(credential.type)
          ? { config: credential.config }
          : {}),
        version: credential.version,
        created_at: credential.createdAt.toISOString(),
        updated_at: credential.updatedAt.toISOString(),
      };
    }
    json.credentials = credentials;
  }
  Object.assign(json, {
    schema_id: identity.schemaId,
    schema_url: schemaUrl(options.publicBaseUrl, identity.schemaId),
    state: identity.state,
    ...(identity.stateChangedAt ? { state_changed_at: identity.stateChangedAt.toISOString() } : {}),
    traits: identity.traits,
  });
  if (identity.verifiableAddresses.length > 0) {
    json.verifiable_addresses = identity.verifiableAddresses.map((a) => ({
      id: a.id,
      value: a.value,
      verified: a.verified,
      via: a.via,
      status: a.status,
      ...(a.verifiedAt ? { verified_at: a.verifiedAt.toISOString() } : {}),
      created_at: a.createdAt.toISOString(),
      updated_at: a.updatedAt.toISOString(),
    }));
  }
  if (identity.recoveryAddresses.length > 0) {
    json.recovery_addresses = identity.recoveryAddresses.map((a) => ({
      id: a.id,
      value: a.value,
      via: a.via,
      created_at: a.createdAt.toISOString(),
      updated_at: a.updatedAt.toISOString(),
    }));
  }
  json.metadata_public = identity.metadataPublic ?? null;
  if (options.admin) json.metadata_admin = identity.metadataAdmin ?? null;
  json.created_at = identity.createdAt.toISOString();
  json.updated_at = identity.updatedAt.toISOString();
  json.organization_id = null;
  return json;
}
