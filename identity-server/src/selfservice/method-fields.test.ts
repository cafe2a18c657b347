import { describe, expect, it } from "vitest";
import { FlowBody } from "../http/flow-body.ts";
import { HerodotError } from "../http/errors.ts";
import { methodFields } from "./method-fields.ts";

// A method's payload schema is its own fields plus the three every Kratos method body has; only
// those names are decoded, each to its type.

describe("methodFields", () => {
  it("decodes the common fields and the method's own, and nothing else", () => {
    const fields = methodFields({ totp_code: "string", totp_unlink: "boolean" });
    const body = FlowBody.of({
      csrf_token: "t",
      method: "totp",
      totp_code: "123456",
      totp_unlink: "true",
      password: "not-this-method's",
    });
    expect(body.fields(fields)).toEqual({
      csrf_token: "t",
      method: "totp",
      totp_code: "123456",
      totp_unlink: true,
      transient_payload: {},
    });
  });

  it("refuses a transient_payload that is no JSON, whatever the method", () => {
    const body = FlowBody.of({ method: "password", transient_payload: "{" });
    expect(() => body.fields(methodFields({}))).toThrow(HerodotError);
  });
});
