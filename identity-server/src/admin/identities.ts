import { randomUUID } from "node:crypto";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ServerContext } from "../context.ts";
import { sendError } from "../flows/errors.ts";
import { isUuid } from "../flows/flow-id.ts";
import { badRequest, conflict, HerodotError, notFoundRow } from "../http/errors.ts";
import { identityJson } from "../identity/identity.ts";
import { hashPassword, isArgon2Hash } from "../methods/password/hasher.ts";
import { buildIdentity } from "../methods/profile/build-identity.ts";
import {
  deleteIdentity,
  DuplicateIdentityError,
  findIdentity,
  insertIdentity,
  listIdentities,
} from "../store/identities.ts";
import { ValidationError } from "../ui/validation-error.ts";
import { parseCreateIdentityBody } from "./create-identity-body.ts";
import { parseJsonBody } from "../http/json-body.ts";

const credentialTypes = new Set([
  "password",
  "oidc",
  "totp",
  "lookup_secret",
  "webauthn",
  "code",
  "passkey",
  "saml",
]);

function includeCredentials(request: FastifyRequest): string[] {
  const raw = (request.query as Record<string, string | string[] | undefined>).include_credential;
  const values = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  for (const value of values) {
    if (!credentialTypes.has(value)) {
      throw badRequest(`Invalid value \`${value}\` for parameter \`include_credential\`.`);
    }
  }
  return values;
}

/** Kratos' admin create answers schema errors as a 400 whose reason lists the violations. */
function validationToBadRequest(error: ValidationError): HerodotError {
  const reasons = error.messages.map((m) => `${m.field || "#"}: ${m.message.text}`);
  return badRequest(reasons.join("\n"));
}

export function registerIdentityRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const base = () => ctx.config.publicBaseUrl;

  app.get("/admin/identities", async (request, reply) => {
    try {
      const query = request.query as Record<string, string | undefined>;
      const pageSize = query.page_size === undefined ? 250 : Number(query.page_size);
      if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 1000) {
        throw badRequest("Items per page must be between 1 and 1000.");
      }
      const after = query.page_token;
      if (after !== undefined && !isUuid(after)) throw badRequest("The page token is invalid.");
      const page = await listIdentities(ctx.db, pageSize, after?.toLowerCase());
      const links = [
        `</admin/identities?page_size=${pageSize}&page_token=00000000-0000-0000-0000-000000000000>; rel="first"`,
      ];
      const last = page.identities[page.identities.length - 1];
      if (page.hasMore && last) {
        links.push(`</admin/identities?page_size=${pageSize}&page_token=${last.id}>; rel="next"`);
      }
      reply.header("link", links.join(","));
      return reply.send(
        page.identities.map((identity) =>
          identityJson(identity, { publicBaseUrl: base(), admin: { includeConfigFor: [] } }),
        ),
      );
    } catch (error) {
      return sendError(reply, error);
    }
  });

  app.get("/admin/identities/:id", async (request, reply) => {
    try {
      const { id } = request.params as { id: string };
      const include = includeCredentials(request);
      const identity = isUuid(id) ? await findIdentity(ctx.db, id.toLowerCase()) : undefined;
      if (!identity) throw notFoundRow();
      return reply.send(
        identityJson(identity, { publicBaseUrl: base(), admin: { includeConfigFor: include } }),
      );
    } catch (error) {
      return sendError(reply, error);
    }
  });

  app.post("/admin/identities", async (request, reply) => {
    try {
      const body = parseCreateIdentityBody(parseJsonBody(request));
      const now = ctx.now();
      try {
        ctx.schema.validateTraits(body.traits);
      } catch (error) {
        if (error instanceof ValidationError) throw validationToBadRequest(error);
        throw error;
      }
      const identity = buildIdentity(ctx, body.traits, now);
      if (body.state) identity.state = body.state;
      identity.metadataPublic = body.metadataPublic ?? null;
      identity.metadataAdmin = body.metadataAdmin ?? null;
      const passwordConfig = body.password;
      if (passwordConfig) {
        let hashed: string;
        if (passwordConfig.hashedPassword !== undefined) {
          if (!isArgon2Hash(passwordConfig.hashedPassword)) {
            throw badRequest(
              "The hashed password is not an argon2 hash; only argon2 hashes can be imported.",
            );
          }
          hashed = passwordConfig.hashedPassword;
        } else {
          hashed = await hashPassword(passwordConfig.password ?? "");
        }
        const identifiers = ctx.schema.derive(body.traits).passwordIdentifiers;
        identity.credentials.push({
          id: randomUUID(),
          type: "password",
          identifiers,
          config: { hashed_password: hashed },
          version: 0,
          createdAt: now,
          updatedAt: now,
        });
      }
      try {
        await ctx.db.transaction().execute((trx) => insertIdentity(trx, identity));
      } catch (error) {
        if (error instanceof DuplicateIdentityError) {
          throw conflict("This identity conflicts with another identity that already exists.");
        }
        throw error;
      }
      reply.header(
        "location",
        `http://127.0.0.1:${ctx.config.adminPort}/admin/identities/${identity.id}`,
      );
      return reply
        .code(201)
        .send(identityJson(identity, { publicBaseUrl: base(), admin: { includeConfigFor: [] } }));
    } catch (error) {
      return sendError(reply, error);
    }
  });

  app.delete("/admin/identities/:id", async (request, reply) => {
    try {
      const { id } = request.params as { id: string };
      const deleted = isUuid(id) ? await deleteIdentity(ctx.db, id.toLowerCase()) : false;
      if (!deleted) throw notFoundRow();
      return reply.code(204).send();
    } catch (error) {
      return sendError(reply, error);
    }
  });
}
