import type { FastifyInstance } from "fastify";
import { webAuthnScript } from "./webauthn-script-source.ts";

/**
 * GET /.well-known/ory/webauthn.js, as Kratos serves it (text/javascript): the functions the
 * WebAuthn and passkey nodes name, for UIs written for Kratos (webauthn-script-source.ts).
 */
export function registerWebAuthnScriptRoute(app: FastifyInstance): void {
  app.get("/.well-known/ory/webauthn.js", async (_request, reply) =>
    reply.type("text/javascript; charset=UTF-8").send(webAuthnScript),
  );
}
