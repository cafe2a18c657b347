import { readFileSync } from "node:fs";
import { Ajv, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import { isPhoneNumber, normalizeAddress, normalizeEmail } from "./normalize.ts";
import { messagesFromAjv, ValidationError } from "../ui/validation-error.ts";

const defaultSchemaId = "default";

interface KratosExtension {
  credentials?: {
    password?: { identifier?: boolean };
    webauthn?: { identifier?: boolean };
    totp?: { account_name?: boolean };
  };
  verification?: { via?: string };
  recovery?: { via?: string };
}

/** A leaf of the traits schema, e.g. `traits.email`. */
export interface TraitPath {
  name: string;
  type: string;
  format: string | undefined;
  required: boolean;
  title: string | undefined;
  pattern: string | undefined;
  enum: unknown[] | undefined;
  extension: KratosExtension;
}

interface AddressSpec {
  value: string;
  via: "email" | "sms";
}

/** What the schema extensions derive from a set of traits. */
export interface TraitsDerivation {
  passwordIdentifiers: string[];
  /** The traits marked `credentials.webauthn.identifier` (security keys), normalised likewise. */
  webauthnIdentifiers: string[];
  verifiableAddresses: AddressSpec[];
  recoveryAddresses: AddressSpec[];
  /** The trait marked `credentials.totp.account_name`, shown as the account in authenticator apps. */
  totpAccountName: string | undefined;
}

function asObject(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

function listPaths(
  schema: Record<string, unknown>,
  prefix: string,
  required: boolean,
  out: TraitPath[],
): void {
  const type = typeof schema.type === "string" ? schema.type : "string";
  if (type === "object") {
    const properties = asObject(schema.properties);
    const requiredNames = Array.isArray(schema.required) ? schema.required.map(String) : [];
    for (const [key, child] of Object.entries(properties)) {
      listPaths(asObject(child), `${prefix}.${key}`, requiredNames.includes(key), out);
    }
    return;
  }
  out.push({
    name: prefix,
    type,
    format: typeof schema.format === "string" ? schema.format : undefined,
    required,
    title: typeof schema.title === "string" ? schema.title : undefined,
    pattern: typeof schema.pattern === "string" ? schema.pattern : undefined,
    enum: Array.isArray(schema.enum) ? schema.enum : undefined,
    extension: asObject(schema["ory.sh/kratos"]),
  });
}

function getPath(root: unknown, dotted: string): unknown {
  let current: unknown = root;
  for (const segment of dotted.split(".")) current = asObject(current)[segment];
  return current;
}

function createAjv(): Ajv {
  const ajv = new Ajv({ allErrors: true, verbose: true, strict: false });
  addFormats.default(ajv);
  ajv.addFormat("tel", { type: "string", validate: isPhoneNumber });
  return ajv;
}

/** The identity schema: trait paths for node building, validators, and the extension semantics. */
export class IdentitySchema {
  readonly id = defaultSchemaId;
  readonly raw: Record<string, unknown>;
  readonly traitPaths: TraitPath[];
  readonly ajv: Ajv;
  private readonly validateIdentity: ValidateFunction;
  /** The password registration payload: traits per the identity schema, password when method=password. */
  readonly registrationPayloadValidator: ValidateFunction;

  constructor(raw: Record<string, unknown>) {
    this.raw = raw;
    const traits = asObject(asObject(raw.properties).traits);
    this.traitPaths = [];
    listPaths(traits, "traits", false, this.traitPaths);
    this.ajv = createAjv();
    this.ajv.addSchema(raw, "identity.schema.json");
    this.validateIdentity = this.ajv.compile({ $ref: "identity.schema.json" });
    this.registrationPayloadValidator = this.ajv.compile({
      type: "object",
      properties: {
        csrf_token: { type: "string" },
        password: { type: "string", minLength: 1 },
        traits: { $ref: this.traitsRef },
        method: { type: "string" },
        transient_payload: { type: "object" },
      },
      if: { properties: { method: { const: "password" } }, required: ["method"] },
      then: { required: ["password"] },
    });
  }

  static load(file: string): IdentitySchema {
    return new IdentitySchema(JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>);
  }

  /** The `$ref` other schemas use to embed the traits schema. */
  get traitsRef(): string {
    return "identity.schema.json#/properties/traits";
  }

  /** The identifier label for the login form: the title of the only identifier trait, if one. */
  get identifierTitle(): { title: string; name: string } | undefined {
    const identifiers = this.traitPaths.filter(
      (p) => p.extension.credentials?.password?.identifier,
    );
    const only = identifiers.length === 1 ? identifiers[0] : undefined;
    return only?.title ? { title: only.title, name: only.name } : undefined;
  }

  /** Validates traits; throws a ValidationError carrying Kratos' messages. */
  validateTraits(traits: unknown): void {
    if (!this.validateIdentity({ traits })) {
      throw new ValidationError(messagesFromAjv(this.validateIdentity.errors ?? []));
    }
  }

  /** Derives identifiers and addresses from (valid) traits as the Kratos schema extensions do. */
  derive(traits: unknown): TraitsDerivation {
    const result: TraitsDerivation = {
      passwordIdentifiers: [],
      webauthnIdentifiers: [],
      verifiableAddresses: [],
      recoveryAddresses: [],
      totpAccountName: undefined,
    };
    for (const path of this.traitPaths) {
      const value = getPath({ traits }, path.name);
      if (typeof value !== "string" || value.trim() === "") continue;
      const ext = path.extension;
      if (ext.credentials?.totp?.account_name && result.totpAccountName === undefined) {
        result.totpAccountName = value;
      }
      if (ext.credentials?.password?.identifier) {
        const identifier = normalizeEmail(value);
        if (!result.passwordIdentifiers.includes(identifier))
          result.passwordIdentifiers.push(identifier);
      }
      if (ext.credentials?.webauthn?.identifier) {
        const identifier = normalizeEmail(value);
        if (!result.webauthnIdentifiers.includes(identifier))
          result.webauthnIdentifiers.push(identifier);
      }
      const verificationVia = ext.verification?.via;
      if (verificationVia === "email" || verificationVia === "sms") {
        const address = normalizeAddress(value, verificationVia);
        if (
          !result.verifiableAddresses.some((a) => a.value === address && a.via === verificationVia)
        )
          result.verifiableAddresses.push({ value: address, via: verificationVia });
      }
      const recoveryVia = ext.recovery?.via;
      if (recoveryVia === "email" || recoveryVia === "sms") {
        const address = normalizeAddress(value, recoveryVia);
        if (!result.recoveryAddresses.some((a) => a.value === address && a.via === recoveryVia))
          result.recoveryAddresses.push({ value: address, via: recoveryVia });
      }
    }
    return result;
  }
}
