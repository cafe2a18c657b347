import { describe, expect, it } from "vitest";
import { FlowBody } from "../http/flow-body.ts";
import { HerodotError } from "../http/errors.ts";
import { settingsStrategies, settingsStrategyFor } from "./settings-strategies.ts";

// Which settings strategy a submission is for is decided from plain values, before any of them
// runs; the order decides submissions more than one strategy recognises.

const strategyFor = (values: Record<string, unknown>) =>
  settingsStrategyFor(FlowBody.of(values))?.id;

describe("the settings strategy registry", () => {
  it("lists the strategies recognised by their own buttons before those chosen by method", () => {
    expect(settingsStrategies().map((s) => [s.id, s.group])).toEqual([
      ["lookup_secret", "lookup_secret"],
      ["trusted_device", "totp"],
      ["totp", "totp"],
      ["webauthn", "webauthn"],
      ["passkey", "passkey"],
      ["code", "code"],
      ["profile", "profile"],
      ["password", "password"],
    ]);
  });

  it("hands a submission to the first strategy responsible for it", () => {
    expect(strategyFor({ method: "profile", "traits.email": "a@example.org" })).toBe("profile");
    expect(strategyFor({ method: "password", password: "x" })).toBe("password");
    expect(strategyFor({ method: "totp", totp_code: "123456" })).toBe("totp");
    expect(strategyFor({ totp_unlink: true })).toBe("totp");
    expect(strategyFor({ code_mfa_enable: "a@example.org" })).toBe("code");
    expect(strategyFor({ lookup_secret_reveal: true, method: "profile" })).toBe("lookup_secret");
    expect(strategyFor({ totp_device_untrust: "d", method: "totp" })).toBe("trusted_device");
    expect(strategyFor({ totp_unlink: true, method: "code" })).toBe("totp");
    expect(strategyFor({ method: "webauthn" })).toBeUndefined();
  });

  it("decodes every strategy's selector fields first, so a malformed one fails any submission", () => {
    let thrown: unknown;
    try {
      settingsStrategyFor(FlowBody.of({ method: "profile", totp_unlink: "maybe" }));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(HerodotError);
    expect((thrown as HerodotError).reason).toBe("Expected value to be a boolean.");
  });
});
