import { LoginFlowFromJSON } from "@portal/client";
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { data } from "react-router";
import { describe, expect, it } from "vitest";
import { renderRoute } from "../../test/route-stub.tsx";
import { vendorJson } from "../../test/vendor-flows.ts";
import type { Locale } from "../i18n/locales.ts";
import Login from "../routes/login/route.tsx";
import { RateLimitedPage } from "./rate-limited-page.tsx";

const flow = {
  ...LoginFlowFromJSON(vendorJson("elements.login.1fa.password.initial.json")),
  id: "f1",
};

/** The login page whose submission the identity service refuses with 429 (stubbed action). */
function renderLimitedLogin(locale: Locale, retryAfterSeconds: number | null) {
  let submissions = 0;
  renderRoute({
    path: "/:lang/login",
    url: `/${locale}/login?flow=f1`,
    Component: Login,
    locale,
    loader: () => ({
      flow,
      notice: undefined,
      invalid: false,
      confirmCreateAccount: false,
      client: undefined,
      registration: "",
    }),
    action: () => {
      submissions++;
      return data(
        { rateLimited: { retryAfterSeconds }, values: { identifier: "jane@example.gov" } },
        { status: 429 },
      );
    },
  });
  return { submissions: () => submissions };
}

async function signIn(email: string, password: string, button: RegExp) {
  const user = userEvent.setup();
  await user.type(await screen.findByRole("textbox", { name: /email|correo/i }), email);
  await user.type(screen.getByLabelText(/^(password|contraseña)$/i), password);
  await user.click(screen.getByRole("button", { name: button }));
}

describe("a sign-in the identity service refuses with 429", () => {
  it("says in English how long to wait, keeps the address and empties the password", async () => {
    const { submissions } = renderLimitedLogin("en", 180);
    await signIn("jane@example.gov", "correct horse 1234", /^sign in with password$/i);

    const alert = await screen.findByText(
      "The sign-in service is receiving too many requests. Try again in 3 minutes.",
    );
    expect(alert.closest("[role=alert]")).not.toBeNull();
    expect(screen.getByRole("textbox", { name: "Email" })).toHaveValue("jane@example.gov");
    await waitFor(() => expect(screen.getByLabelText("Password")).toHaveValue(""));
    expect(submissions()).toBe(1);
  });

  it("says it in Spanish, and 'in a moment' without a usable wait", async () => {
    renderLimitedLogin("es", null);
    await signIn("jane@example.gov", "correct horse 1234", /^iniciar sesión con contraseña$/i);
    expect(
      await screen.findByText(
        "El servicio de acceso está recibiendo demasiadas solicitudes. Inténtelo de nuevo en un momento.",
      ),
    ).toBeInTheDocument();
  });
});

describe("the rate-limit page", () => {
  it("words the wait and links back to the same page", async () => {
    renderRoute({
      path: "/:lang/login",
      url: "/es/login?flow=f1",
      locale: "es",
      Component: () => <RateLimitedPage limited={{ retryAfterSeconds: 45 }} />,
      loader: () => null,
    });
    expect(
      await screen.findByRole("heading", { level: 1, name: "Demasiadas solicitudes" }),
    ).toBeInTheDocument();
    expect(screen.getByRole("alert")).toHaveTextContent("Inténtelo de nuevo en 45 segundos.");
    expect(screen.getByRole("link", { name: "Intentar de nuevo" })).toHaveAttribute(
      "href",
      "/es/login?flow=f1",
    );
  });
});
