import { LoginFlowFromJSON, RegistrationFlowFromJSON } from "@portal/client";
import type { UiContainer } from "@portal/client";
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useActionData, useLoaderData } from "react-router";
import { describe, expect, it } from "vitest";
import { renderRoute } from "../../test/route-stub.tsx";
import { vendorJson } from "../../test/vendor-flows.ts";
import { codeErrorsOnField } from "./code-errors.ts";
import { FlowForm } from "./flow-form.tsx";
import { FlowMessages } from "./flow-messages.tsx";

/** A flow page: the loader's flow, replaced by the one the action answers. */
function FlowPage() {
  const loaded = useLoaderData<UiContainer>();
  const answered = useActionData<UiContainer | undefined>();
  const ui = answered ?? loaded;
  return (
    <main>
      <FlowMessages messages={ui.messages} errorTitle="Sign-in failed" />
      <FlowForm flowId="f1" nodes={ui.nodes} showErrorSummary={answered !== undefined} />
    </main>
  );
}

function renderAnswering(initial: UiContainer, answer: UiContainer) {
  renderRoute({
    path: "/:lang/page",
    url: "/en/page?flow=f1",
    Component: FlowPage,
    loader: () => initial,
    action: () => answer,
  });
}

describe("focus after a failed submission (JavaScript on)", () => {
  it("moves to the error summary when the answer has field errors", async () => {
    const user = userEvent.setup();
    const missing = RegistrationFlowFromJSON(
      vendorJson("elements.registration.password.missing-fields.json"),
    );
    const initial = RegistrationFlowFromJSON(
      vendorJson("elements.registration.password.initial.json"),
    );
    renderAnswering(initial.ui, missing.ui);

    await user.click(await screen.findByRole("button", { name: /sign up/i }));

    const summary = await screen.findByText("There is a problem");
    await waitFor(() => expect(summary.closest('[role="alert"]')).toHaveFocus());
  });

  it("moves to the page's error alert when the error belongs to no field (wrong credentials)", async () => {
    const user = userEvent.setup();
    const initial = LoginFlowFromJSON(vendorJson("elements.login.1fa.password.initial.json"));
    const failed = LoginFlowFromJSON(
      vendorJson("elements.login.1fa.password.wrong-credentials.json"),
    );
    renderAnswering(initial.ui, failed.ui);

    await user.click(await screen.findByRole("button", { name: "Sign in with password" }));

    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent(/credentials are invalid/);
    await waitFor(() => expect(alert).toHaveFocus());
  });

  it("moves to the invalid field when the answer marks one and shows no summary", async () => {
    const user = userEvent.setup();
    const invalid = codeErrorsOnField(
      LoginFlowFromJSON(vendorJson("elements.login.aal2.totp.invalid-code.json")),
    );
    renderRoute({
      path: "/:lang/page",
      url: "/en/page?flow=f1",
      Component: () => (
        <main>
          <FlowForm flowId="f1" nodes={useLoaderData<UiContainer>().nodes} />
        </main>
      ),
      loader: () => invalid.ui,
      action: () => invalid.ui,
    });

    await user.click(await screen.findByRole("button", { name: /authenticator/i }));
    const code = screen
      .getAllByRole("textbox")
      .find((box) => box.getAttribute("name") === "totp_code");

    await waitFor(() => expect(code).toHaveFocus());
    expect(code).toHaveAttribute("aria-invalid", "true");
  });
});
