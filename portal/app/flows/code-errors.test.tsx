import { LoginFlowFromJSON, RecoveryFlowFromJSON, VerificationFlowFromJSON } from "@portal/client";
import type { UiContainer } from "@portal/client";
import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderInPortal } from "../../test/render.tsx";
import { vendorJson } from "../../test/vendor-flows.ts";
import { codeErrorsOnField } from "./code-errors.ts";
import { FlowForm } from "./flow-form.tsx";
import { FlowMessages } from "./flow-messages.tsx";

function renderFlow(flow: { ui: UiContainer }) {
  const shown = codeErrorsOnField(flow);
  renderInPortal(() => (
    <>
      <FlowMessages messages={shown.ui.messages} />
      <FlowForm flowId="f1" nodes={shown.ui.nodes} />
    </>
  ));
}

function field(name: string): HTMLElement {
  const found = screen.getAllByRole("textbox").find((box) => box.getAttribute("name") === name);
  if (!found) throw new Error(`no field ${name}`);
  return found;
}

describe("a wrong code is linked to the code field, as settings does", () => {
  it.each([
    [
      "the authenticator code at sign-in (4000008)",
      LoginFlowFromJSON(vendorJson("elements.login.aal2.totp.invalid-code.json")),
      "totp_code",
    ],
    [
      "a backup code at sign-in (4000016)",
      LoginFlowFromJSON(vendorJson("elements.login.aal2.lookup-secret.invalid.json")),
      "lookup_secret",
    ],
    [
      "the verification code (4070006)",
      VerificationFlowFromJSON(vendorJson("elements.verification.code.wrong-code.json")),
      "code",
    ],
    [
      "the recovery code (4060006)",
      RecoveryFlowFromJSON(vendorJson("elements.recovery.code.wrong-code.json")),
      "code",
    ],
  ])("%s", (_, flow, name) => {
    renderFlow(flow);
    const input = field(name);
    expect(input).toHaveAttribute("aria-invalid", "true");
    const describedBy = input.getAttribute("aria-describedby") ?? "";
    const description = document.getElementById(describedBy.split(" ")[0] ?? "");
    expect(description?.querySelector("[data-message-id]")).not.toBeNull();
    // Said once, on the field: not again in a page alert.
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("leaves the message on the flow when the page has no such field", () => {
    const flow = LoginFlowFromJSON(vendorJson("elements.login.aal2.totp.invalid-code.json"));
    const withoutField = {
      ...flow,
      ui: {
        ...flow.ui,
        nodes: flow.ui.nodes.filter(
          (node) => !("name" in node.attributes && node.attributes.name === "totp_code"),
        ),
      },
    };
    expect(codeErrorsOnField(withoutField)).toBe(withoutField);
  });
});
