import { loadOpenApiSpec } from "../../test-support/openapi-spec.ts";

// Validates response bodies against the vendored Hydra OpenAPI spec. Besides the relaxations every
// Ory spec needs (openapi-spec.ts), these statements of the Hydra spec do not match what Hydra sends:
// - `NullDuration` (client lifespans) is declared a string, but Go encodes an unset one as null.
// - Some operations declare herodot's `genericError` for errors, but Hydra's writer turns every
//   error into an RFC 6749 object (x.ErrorEnhancer); `errorOAuth2` is accepted there too.

const spec = loadOpenApiSpec({
  url: new URL("../../../../vendor/ory/hydra-openapi.json", import.meta.url),
  label: "Hydra spec",
  patch({ schemas }) {
    schemas.NullDuration = { ...schemas.NullDuration, type: ["string", "null"] };
  },
});

const validateOAuth2Error = spec.component("errorOAuth2", {
  required: ["error", "error_description"],
});

/** Throws when `body` is not what the Hydra spec promises for this operation and status. */
export function assertMatchesHydraSpec(
  method: string,
  path: string,
  status: number,
  body: unknown,
): void {
  spec.assertResponse(
    method,
    path,
    status,
    body,
    () => status >= 400 && validateOAuth2Error(body) === true,
  );
}
