import type { FastifyInstance } from "fastify";

// Kratos serves the browser half of WebAuthn and passkeys here; nodes call the functions by name
// (`onclickTrigger: "oryWebAuthnLogin"` …). This server offers neither method, so it never renders
// such nodes. The script still exists, so that pages written for Kratos that load it keep working:
// it defines the same global functions, and each one only reports that the method is unavailable.
// It reads nothing, sends nothing and changes nothing on the page.
const script = `/* WebAuthn and passkeys are not offered by this identity server. */
(function () {
  "use strict";
  if (typeof window === "undefined" || window.__oryWebAuthnInitialized) return;
  var names = [
    "oryWebAuthnLogin",
    "oryWebAuthnRegistration",
    "oryPasskeySettingsRegistration",
    "oryPasskeyLogin",
    "oryPasskeyRegistration",
    "oryPasskeyLoginAutocompleteInit",
  ];
  names.forEach(function (name) {
    var unavailable = function () {
      console.warn(name + ": WebAuthn and passkeys are not available on this server.");
    };
    window[name] = unavailable;
    window["__" + name] = unavailable;
  });
  window.__oryWebAuthnInitialized = true;
})();
`;

/** GET /.well-known/ory/webauthn.js, as Kratos serves it (text/javascript). */
export function registerWebAuthnScriptRoute(app: FastifyInstance): void {
  app.get("/.well-known/ory/webauthn.js", async (_request, reply) =>
    reply.type("text/javascript; charset=UTF-8").send(script),
  );
}
