import {
  LoginFlowFromJSON,
  RegistrationFlowFromJSON,
  VerificationFlowFromJSON,
} from "@portal/client";
import type { UiContainer } from "@portal/client";
import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { renderInPortal } from "../../test/render.tsx";
import { vendorJson } from "../../test/vendor-flows.ts";
import { FlowForm } from "./flow-form.tsx";
import { lowercaseInPlace } from "./lowercase-input.ts";

function renderNodes(
  ui: UiContainer,
  onFieldInput?: (name: string, input: HTMLInputElement) => void,
) {
  renderInPortal(() => <FlowForm flowId="f1" nodes={ui.nodes} options={{ onFieldInput }} />);
}

/** The text box the flow's node of this name became (found by role, told apart by name). */
function textbox(name: string): HTMLElement {
  const found = screen.getAllByRole("textbox").find((box) => box.getAttribute("name") === name);
  if (!found) throw new Error(`no text box named ${name}`);
  return found;
}

describe("code fields", () => {
  it.each([
    [
      "the authenticator code at sign-in",
      "elements.login.aal2.totp.invalid-code.json",
      "totp_code",
    ],
    ["the e-mailed code at sign-in", "elements.login.aal2.code.sent.json", "code"],
  ])("%s gets a numeric keypad and one-time-code autofill", (_, file, name) => {
    renderNodes(LoginFlowFromJSON(vendorJson(file)).ui);
    const code = textbox(name);
    expect(code).toHaveAttribute("inputmode", "numeric");
    expect(code).toHaveAttribute("autocomplete", "one-time-code");
  });

  it("the verification code too", () => {
    renderNodes(VerificationFlowFromJSON(vendorJson("elements.verification.code.sent.json")).ui);
    const code = textbox("code");
    expect(code).toHaveAttribute("inputmode", "numeric");
    expect(code).toHaveAttribute("autocomplete", "one-time-code");
  });
});

describe("e-mail fields", () => {
  it("autofill as e-mail (registration) and as username (the sign-in identifier)", () => {
    renderNodes(
      RegistrationFlowFromJSON(vendorJson("elements.registration.password.initial.json")).ui,
    );
    const email = textbox("traits.email");
    expect(email).toHaveAttribute("autocomplete", "email");
    expect(email).toHaveAttribute("inputmode", "email");
  });

  it("the sign-in identifier autofills as the username", () => {
    renderNodes(LoginFlowFromJSON(vendorJson("elements.login.1fa.password.initial.json")).ui);
    expect(textbox("identifier")).toHaveAttribute("autocomplete", "username");
  });

  it("an e-mail node without autocomplete still autofills as e-mail (verification)", () => {
    renderNodes(VerificationFlowFromJSON(vendorJson("elements.verification.code.initial.json")).ui);
    expect(textbox("email")).toHaveAttribute("autocomplete", "email");
  });

  it("keeps the caret where it was when the input is lowercased as typed", async () => {
    const user = userEvent.setup();
    renderNodes(
      RegistrationFlowFromJSON(vendorJson("elements.registration.password.initial.json")).ui,
      (_, input) => lowercaseInPlace(input),
    );
    const email = textbox("traits.email") as HTMLInputElement;
    await user.type(email, "jane@example.org");
    // Back to just after "jane", then type a capital: it becomes lowercase where it was typed.
    email.setSelectionRange(4, 4);
    await user.type(email, "X", { initialSelectionStart: 4, initialSelectionEnd: 4 });
    expect(email).toHaveValue("janex@example.org");
    expect(email.selectionStart).toBe(5);
    expect(email.selectionEnd).toBe(5);
  });
});
