import { RegistrationFlowFromJSON } from "@portal/client";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ActionFunction } from "react-router";
import { describe, expect, it, vi } from "vitest";
import { renderRoute } from "../../../test/route-stub.tsx";
import { vendorJson } from "../../../test/vendor-flows.ts";
import Registration from "./route.tsx";
import { messages } from "../../validation/messages.ts";

const flow = RegistrationFlowFromJSON(vendorJson("elements.registration.password.initial.json"));

function renderRegistration(
  action: ActionFunction = () => null,
  url = "/en/registration?flow=f1",
  nodna = false,
) {
  return renderRoute({
    path: "/:lang/registration",
    url,
    Component: Registration,
    loader: () => ({ flow: { ...flow, id: "f1" }, notice: undefined, nodna }),
    action,
  });
}

describe("the registration page", () => {
  it("asks for e-mail and password twice, without the phone field", async () => {
    renderRegistration();

    expect(
      await screen.findByRole("heading", { level: 1, name: "Create your account" }),
    ).toBeInTheDocument();
    expect(screen.getByLabelText("Email")).toHaveAttribute("inputmode", "email");
    expect(screen.getByLabelText("Confirm email")).toBeRequired();
    expect(screen.getByLabelText("Password")).toHaveAttribute("autocomplete", "new-password");
    expect(screen.getByLabelText("Confirm password")).toHaveAttribute(
      "autocomplete",
      "new-password",
    );
    expect(screen.queryByLabelText("Phone Number")).toBeNull();
    expect(screen.getByRole("link", { name: "Already have an account? Sign in" })).toHaveAttribute(
      "href",
      "/en/login",
    );
  });

  it("lowercases e-mails as typed; a changed field is checked when the user leaves it", async () => {
    const user = userEvent.setup();
    renderRegistration();
    const email = await screen.findByLabelText("Email");

    await user.type(email, "Jane@Example");
    expect(email).toHaveValue("jane@example");
    // Not while typing: only once the user leaves the field.
    expect(email).not.toHaveAttribute("aria-invalid");
    await user.tab();
    expect(email).toHaveAttribute("aria-invalid", "true");
    expect(email).toHaveAccessibleDescription("Email must be a valid email.");

    // Once shown, the error is checked as the user types, and goes as soon as it is fixed.
    await user.type(email, ".gov");
    expect(email).not.toHaveAttribute("aria-invalid");

    const confirm = screen.getByLabelText("Confirm email");
    await user.type(confirm, "JANE@example.org");
    expect(confirm).toHaveValue("jane@example.org");
    await user.tab();
    expect(confirm).toHaveAccessibleDescription("Emails must match.");
  });

  it("never complains when the user only passes through empty fields", async () => {
    const user = userEvent.setup();
    renderRegistration();
    await user.click(await screen.findByLabelText("Email"));
    for (let step = 0; step < 4; step += 1) await user.tab();

    for (const label of ["Email", "Confirm email", "Password", "Confirm password"]) {
      expect(screen.getByLabelText(label)).not.toHaveAttribute("aria-invalid");
    }
    expect(screen.queryByText("This field is required.")).toBeNull();
  });

  it("checks password strength and the confirmation once changed and left", async () => {
    const user = userEvent.setup();
    renderRegistration();
    const password = await screen.findByLabelText("Password");

    await user.type(password, "Correct-Horse");
    expect(password).not.toHaveAttribute("aria-invalid");
    await user.tab();
    expect(password).toHaveAttribute("aria-invalid", "true");
    expect(password).toHaveAccessibleDescription(
      /^Password must contain at least 12 characters, 1 uppercase, 1 lowercase, 1 number and 1 special character\./,
    );
    await user.type(password, "7");
    expect(password).not.toHaveAttribute("aria-invalid");

    const confirm = screen.getByLabelText("Confirm password");
    await user.type(confirm, "Correct-Horse-8");
    await user.tab();
    expect(confirm).toHaveAccessibleDescription("Passwords must match.");
  });

  it("shows the password rules before the first attempt and ticks them off as the user types", async () => {
    const user = userEvent.setup();
    renderRegistration();
    const password = await screen.findByLabelText("Password");
    const rules = screen.getByRole("list", { name: "Your password needs:" });
    expect(within(rules).getAllByRole("listitem")).toHaveLength(5);
    expect(within(rules).getAllByText("(not yet)")).toHaveLength(5);
    expect(password).toHaveAccessibleDescription(/At least 12 characters \(not yet\)/);

    await user.type(password, "correct");
    expect(within(rules).getByText("A lowercase letter").parentElement).toHaveTextContent("(done)");
    expect(within(rules).getAllByText("(not yet)")).toHaveLength(4);
    // Announced politely once typing pauses, not on every keystroke.
    expect(screen.queryByText(/password requirements met/)).toBeNull();
    expect(
      await screen.findByText("1 of 5 password requirements met", {}, { timeout: 5000 }),
    ).toHaveAttribute("aria-live", "polite");

    await user.type(password, "-Horse7x");
    expect(within(rules).queryAllByText("(not yet)")).toHaveLength(0);
    expect(
      await screen.findByText("5 of 5 password requirements met", {}, { timeout: 5000 }),
    ).toBeInTheDocument();
  });

  it("shows and hides the password with a toggle button", async () => {
    const user = userEvent.setup();
    renderRegistration();
    const password = await screen.findByLabelText("Password");
    const toggle = screen.getByRole("button", { name: "Show Password" });

    expect(toggle).toHaveAttribute("aria-pressed", "false");
    await user.click(toggle);
    expect(password).toHaveAttribute("type", "text");
    expect(toggle).toHaveAttribute("aria-pressed", "true");
    await user.click(toggle);
    expect(password).toHaveAttribute("type", "password");
  });

  it("does not submit an invalid form and moves focus to the first problem", async () => {
    const user = userEvent.setup();
    const action = vi.fn(() => null);
    renderRegistration(action);

    await user.click(await screen.findByRole("button", { name: "Sign up" }));

    expect(action).not.toHaveBeenCalled();
    expect(screen.getByLabelText("Email")).toHaveFocus();
    for (const label of ["Email", "Confirm email", "Password", "Confirm password"]) {
      expect(screen.getByLabelText(label)).toHaveAccessibleDescription(/^This field is required\./);
    }
    const summary = screen.getByRole("alert");
    expect(summary).toHaveTextContent("There is a problem");
    expect(
      within(summary).getByRole("link", { name: "Email: This field is required." }),
    ).toHaveAttribute("href", "#field-traits-email");
  });

  it("submits a valid form to the route action", async () => {
    const user = userEvent.setup();
    const received: FormData[] = [];
    renderRegistration(async ({ request }) => {
      received.push(await request.formData());
      return null;
    });

    await user.type(await screen.findByLabelText("Email"), "jane@example.gov");
    await user.type(screen.getByLabelText("Confirm email"), "jane@example.gov");
    await user.type(screen.getByLabelText("Password"), "Correct-Horse-7");
    await user.type(screen.getByLabelText("Confirm password"), "Correct-Horse-7");
    await user.click(screen.getByRole("button", { name: "Sign up" }));

    await waitFor(() => expect(received).toHaveLength(1));
    expect(received[0]?.get("method")).toBe("password");
    expect(received[0]?.get("traits.email")).toBe("jane@example.gov");
  });

  it("shows the action's messages on their fields (the no-JavaScript path)", async () => {
    const user = userEvent.setup();
    renderRegistration(() => ({
      fieldErrors: { confirm_email: [messages.emailsMustMatch] },
      values: { "traits.email": "jane@example.gov", confirm_email: "jane@example.org" },
    }));
    await user.type(await screen.findByLabelText("Email"), "jane@example.gov");
    await user.type(screen.getByLabelText("Confirm email"), "jane@example.gov");
    await user.type(screen.getByLabelText("Password"), "Correct-Horse-7");
    await user.type(screen.getByLabelText("Confirm password"), "Correct-Horse-7");

    await user.click(screen.getByRole("button", { name: "Sign up" }));

    await waitFor(() =>
      expect(screen.getByLabelText("Confirm email")).toHaveAccessibleDescription(
        "Emails must match.",
      ),
    );
  });

  it("warns about a possible existing account when arriving with #nodna", async () => {
    renderRegistration(undefined, "/en/registration?flow=f1#nodna");

    expect(await screen.findByRole("status")).toHaveTextContent("You may already have an account.");
  });

  it("warns in the server's HTML when the loader says ?nodna= (no JavaScript needed)", async () => {
    renderRegistration(undefined, "/en/registration?flow=f1&nodna=1", true);

    expect(await screen.findByRole("status")).toHaveTextContent("You may already have an account.");
  });

  it("does not warn without ?nodna= or #nodna", async () => {
    renderRegistration();

    await screen.findByRole("heading", { level: 1, name: "Create your account" });
    expect(screen.queryByText(/You may already have an account/)).toBeNull();
  });
});
