import { RecoveryFlowFromJSON } from "@portal/client";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ActionFunction } from "react-router";
import { describe, expect, it, vi } from "vitest";
import { renderRoute } from "../../../test/route-stub.tsx";
import { vendorJson } from "../../../test/vendor-flows.ts";
import type { Locale } from "../../i18n/locales.ts";
import Recovery from "./route.tsx";

const flows = {
  initial: RecoveryFlowFromJSON(vendorJson("elements.recovery.code.initial.json")),
  sent: RecoveryFlowFromJSON(vendorJson("elements.recovery.code.sent.json")),
  wrongCode: RecoveryFlowFromJSON(vendorJson("elements.recovery.code.wrong-code.json")),
};

function renderRecovery(
  flow: keyof typeof flows,
  options: { action?: ActionFunction; locale?: Locale } = {},
) {
  const locale = options.locale ?? "en";
  return renderRoute({
    path: "/:lang/recovery",
    url: `/${locale}/recovery?flow=r1`,
    Component: Recovery,
    loader: () => ({ flow: { ...flows[flow], id: "r1" }, notice: undefined }),
    action: options.action ?? (() => null),
    locale,
  });
}

describe("the recovery page", () => {
  it("is headed 'Password reset' and asks for the account's e-mail", async () => {
    renderRecovery("initial");

    expect(
      await screen.findByRole("heading", { level: 1, name: "Password reset" }),
    ).toBeInTheDocument();
    expect(screen.getByLabelText("Email")).toHaveAttribute("inputmode", "email");
    expect(screen.getByRole("button", { name: "Continue" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Go back" })).toHaveAttribute("href", "/en/login");
  });

  it("speaks Spanish on /es", async () => {
    renderRecovery("initial", { locale: "es" });

    expect(
      await screen.findByRole("heading", { level: 1, name: "Restablecer contraseña" }),
    ).toBeInTheDocument();
    expect(screen.getByLabelText("Correo electrónico")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Volver" })).toHaveAttribute("href", "/es/login");
  });

  it("lowercases the e-mail as typed and checks it once changed and left", async () => {
    const user = userEvent.setup();
    renderRecovery("initial");
    const email = await screen.findByLabelText("Email");
    // Passing through the empty field says nothing.
    await user.click(email);
    await user.tab();
    expect(email).not.toHaveAttribute("aria-invalid");

    await user.type(email, "Jane@Example");
    expect(email).toHaveValue("jane@example");
    expect(email).not.toHaveAttribute("aria-invalid");
    await user.tab();
    expect(email).toHaveAttribute("aria-invalid", "true");
    expect(email).toHaveAccessibleDescription("Email must be a valid email.");

    await user.type(email, ".GOV");
    expect(email).toHaveValue("jane@example.gov");
    expect(email).not.toHaveAttribute("aria-invalid");
  });

  it("sends nothing while the e-mail is invalid, and says what to fix", async () => {
    const user = userEvent.setup();
    const action = vi.fn(() => null);
    renderRecovery("initial", { action });

    await user.click(await screen.findByRole("button", { name: "Continue" }));

    const summary = await screen.findByRole("alert");
    expect(
      within(summary).getByRole("link", { name: "Email: This field is required." }),
    ).toHaveAttribute("href", "#field-email");
    expect(screen.getByLabelText("Email")).toHaveFocus();
    expect(action).not.toHaveBeenCalled();
  });

  it("asks for the code once it is sent, with a resend button carrying the address", async () => {
    const user = userEvent.setup();
    const posted: Record<string, string>[] = [];
    renderRecovery("sent", {
      action: async ({ request }) => {
        posted.push(Object.fromEntries(await request.formData()) as Record<string, string>);
        return null;
      },
    });

    expect(await screen.findByRole("status")).toHaveTextContent(
      "An email containing a recovery code has been sent",
    );
    const code = screen.getByLabelText("Recovery code");
    expect(code).toHaveAttribute("autocomplete", "one-time-code");

    await user.click(screen.getByRole("button", { name: "Resend code" }));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toMatchObject({ email: "dev@ory.dev", method: "code" });
    expect(posted[0]).toHaveProperty("csrf_token");

    await user.type(code, "123456");
    await user.click(screen.getByRole("button", { name: "Continue" }));
    await waitFor(() => expect(posted).toHaveLength(2));
    expect(posted[1]).toMatchObject({ code: "123456", method: "code" });
    expect(posted[1]).not.toHaveProperty("email");
  });

  it("requires the code before continuing", async () => {
    const user = userEvent.setup();
    const action = vi.fn(() => null);
    renderRecovery("sent", { action });

    await user.click(await screen.findByRole("button", { name: "Continue" }));

    expect(screen.getByLabelText("Recovery code")).toHaveAccessibleDescription(
      "This field is required.",
    );
    expect(action).not.toHaveBeenCalled();
  });

  it("shows a wrong code (4060006) as an error", async () => {
    renderRecovery("wrongCode", { locale: "es" });

    // Said on the code field (marked invalid, described by it), as settings does.
    const code = await screen.findByLabelText("Código de recuperación");
    expect(code).toHaveAttribute("aria-invalid", "true");
    expect(code).toHaveAccessibleDescription(
      "El código de recuperación no es válido o ya se usó. Inténtelo de nuevo.",
    );
    expect(screen.getByRole("button", { name: "Reenviar el código" })).toBeInTheDocument();
  });
});
