import { describe, expect, it } from "vitest";
import { FlowBody } from "../../http/flow-body.ts";
import { IdentitySchema } from "../../identity/identity-schema.ts";
import { methodFields } from "../../selfservice/method-fields.ts";
import { traitFields } from "./trait-fields.ts";

describe("traitFields", () => {
  it("adds the trait paths, required only where asked: an empty required boolean is false (registration), an optional one is left out (settings)", () => {
    const schema = new IdentitySchema({
      type: "object",
      properties: {
        traits: {
          type: "object",
          properties: { email: { type: "string" }, newsletter: { type: "boolean" } },
          required: ["newsletter"],
        },
      },
    });
    const body = FlowBody.of({ "traits.email": "a@example.org", "traits.newsletter": "" });
    const registration = methodFields({}, traitFields(schema.traitPaths, true));
    expect(body.fields(registration)).toEqual({
      traits: { email: "a@example.org", newsletter: false },
      transient_payload: {},
    });
    const settings = methodFields({}, traitFields(schema.traitPaths, false));
    expect(body.fields(settings)).toEqual({
      traits: { email: "a@example.org" },
      transient_payload: {},
    });
  });
});
