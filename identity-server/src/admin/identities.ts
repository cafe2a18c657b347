import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ServerContext } from "../context.ts";
import { answeringErrors } from "../http/send-error.ts";
import { isUuid } from "../http/uuid-param.ts";
import { badRequest, conflict, HerodotError, notFoundRow } from "../http/errors.ts";
import { parseJsonBody } from "../http/json-body.ts";
import { identityJson, type Identity } from "../identity/identity.ts";
import {
  deleteIdentity,
  DuplicateIdentityError,
  findIdentity,
  insertIdentity,
} from "../store/identities.ts";
import { parseCreateIdentityBody, parseUpdateIdentityBody } from "./create-identity-body.ts";
import { withoutCredential } from "./delete-credential.ts";
import { batchCreateIdentities } from "./identity-batch.ts";
import {
  credentialTypes,
  importPassword,
  saveUpdatedIdentity,
  validatedIdentity,
  withAdminFields,
} from "./identity-changes.ts";
import { identityFromCreateBody } from "./identity-create.ts";
import { sendIdentityList } from "./identity-list.ts";
import { patchedIdentity } from "./identity-patch.ts";

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

/** The identity named by the `:id` path parameter (Kratos answers 404 for anything unknown). */
async function identityOf(ctx: ServerContext, request: FastifyRequest): Promise<Identity> {
  const { id } = request.params as { id: string };
  const identity = isUuid(id) ? await findIdentity(ctx.db, id.toLowerCase()) : undefined;
  if (!identity) throw notFoundRow();
  return identity;
}

/** Kratos' identity handler (identity/handler.go), on the admin listener. */
export function registerIdentityRoutes(app: FastifyInstance, ctx: ServerContext): void {
  // What writes answer: credentials without their config, plus metadata_admin.
  const adminView = (identity: Identity) =>
    identityJson(identity, {
      publicBaseUrl: ctx.config.publicBaseUrl,
      admin: { includeConfigFor: [] },
    });

  app.get(
    "/admin/identities",
    answeringErrors((request, reply) => sendIdentityList(ctx, request, reply)),
  );

  app.get(
    "/admin/identities/:id",
    answeringErrors(async (request, reply) => {
      const include = includeCredentials(request);
      const identity = await identityOf(ctx, request);
      return reply.send(
        identityJson(identity, {
          publicBaseUrl: ctx.config.publicBaseUrl,
          admin: { includeConfigFor: include },
        }),
      );
    }),
  );

  app.post(
    "/admin/identities",
    answeringErrors(async (request, reply) => {
      const body = parseCreateIdentityBody(parseJsonBody(request));
      const identity = await identityFromCreateBody(ctx, body, ctx.now());
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
      return reply.code(201).send(adminView(identity));
    }),
  );

  app.patch(
    "/admin/identities",
    answeringErrors(async (request, reply) => {
      return reply.send(await batchCreateIdentities(ctx, parseJsonBody(request)));
    }),
  );

  // Kratos' update: traits and both metadata fields are replaced, state and schema change when
  // given, credentials are imported on top of the existing ones.
  app.put(
    "/admin/identities/:id",
    answeringErrors(async (request, reply) => {
      const body = parseUpdateIdentityBody(parseJsonBody(request));
      const original = await identityOf(ctx, request);
      const now = ctx.now();
      let state = original.state;
      if (body.state !== undefined && body.state !== original.state) {
        if (body.state !== "active" && body.state !== "inactive") {
          throw badRequest("identity state is not valid");
        }
        state = body.state;
      }
      const base = withAdminFields(
        original,
        { state, metadataPublic: body.metadataPublic, metadataAdmin: body.metadataAdmin },
        now,
      );
      if (body.password) await importPassword(base, body.password, now);
      const updated = validatedIdentity(ctx, base, body.traits, now);
      await saveUpdatedIdentity(ctx, original, updated);
      return reply.send(adminView(updated));
    }),
  );

  app.patch(
    "/admin/identities/:id",
    answeringErrors(async (request, reply) => {
      const original = await identityOf(ctx, request);
      let patch: unknown;
      try {
        patch = parseJsonBody(request);
      } catch (error) {
        if (!(error instanceof HerodotError)) throw error;
        throw new HerodotError(400, {
          reason: "failed to unmarshal JSON patch",
          message: error.message,
        });
      }
      const updated = patchedIdentity(ctx, original, patch, ctx.now());
      await saveUpdatedIdentity(ctx, original, updated);
      return reply.send(adminView(updated));
    }),
  );

  app.delete(
    "/admin/identities/:id",
    answeringErrors(async (request, reply) => {
      const { id } = request.params as { id: string };
      const deleted = isUuid(id) ? await deleteIdentity(ctx.db, id.toLowerCase()) : false;
      if (!deleted) throw notFoundRow();
      return reply.code(204).send();
    }),
  );

  app.delete(
    "/admin/identities/:id/credentials/:type",
    answeringErrors(async (request, reply) => {
      const original = await identityOf(ctx, request);
      const { type } = request.params as { type: string };
      const updated = {
        ...withoutCredential(original, type, ctx.config.oryExtensions),
        updatedAt: ctx.now(),
      };
      await saveUpdatedIdentity(ctx, original, updated);
      return reply.code(204).send();
    }),
  );
}
