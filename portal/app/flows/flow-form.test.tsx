import {
  LoginFlowFromJSON,
  RecoveryFlowFromJSON,
  RegistrationFlowFromJSON,
  UiNodeFromJSON,
} from "@portal/client";
import type { UiContainer, UiNode } from "@portal/client";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { Link, useActionData, useLoaderData } from "react-router";
import { describe, expect, it } from "vitest";
import { renderInPortal } from "../../test/render.tsx";
import { renderRoute } from "../../test/route-stub.tsx";
import { vendorJson } from "../../test/vendor-flows.ts";
import { FlowForm } from "./flow-form.tsx";
import { FlowMessages } from "./flow-messages.tsx";
import { FlowNode } from "./flow-node.tsx";
import { isInputAttributes } from "./node-guards.ts";

function renderFlow(ui: UiContainer, locale: "en" | "es" = "en") {
  return renderInPortal(
    () => (
      <>
        <FlowMessages messages={ui.messages} errorTitle="Sign-in failed" />
        <FlowForm flowId="f1" nodes={ui.nodes} />
      </>
    ),
    { locale },
  );
}

function nodeList(file: string): UiNode[] {
  const json = vendorJson(file);
  return Array.isArray(json) ? json.map((node) => UiNodeFromJSON(node)) : [];
}

describe("the login form from real flow JSON", () => {
  it("has a labelled e-mail field, a password field and the method submit button", () => {
    const flow = LoginFlowFromJSON(vendorJson("elements.login.1fa.password.initial.json"));
    renderFlow(flow.ui);

    expect(screen.getByLabelText("Email")).toHaveAttribute("name", "identifier");
    const password = screen.getByLabelText("Password");
    expect(password).toHaveAttribute("type", "password");
    expect(password).toHaveAttribute("autocomplete", "current-password");
    const submit = screen.getByRole("button", { name: "Sign in with password" });
    expect(submit).toHaveAttribute("type", "submit");
    expect(submit).toHaveAttribute("name", "method");
    expect(submit).toHaveAttribute("value", "password");
  });

  it("carries the CSRF token as a hidden input", () => {
    const flow = LoginFlowFromJSON(vendorJson("elements.login.1fa.password.initial.json"));
    const { container } = renderFlow(flow.ui);
    const csrf = container.querySelector('input[type="hidden"][name="csrf_token"]');
    expect(csrf).toHaveValue("AAAAAAA/AAAAAA/2+AAAAAAAA==");
  });

  it("posts to the route's own URL, keeping ?flow=", () => {
    const flow = LoginFlowFromJSON(vendorJson("elements.login.1fa.password.initial.json"));
    const { container } = renderFlow(flow.ui);
    const form = container.querySelector("form");
    expect(form).toHaveAttribute("method", "post");
    expect(form?.getAttribute("action")).toBe("/en/login?flow=f1");
  });

  it("announces wrong credentials (4000006) and keeps the typed identifier", () => {
    const flow = LoginFlowFromJSON(
      vendorJson("elements.login.1fa.password.wrong-credentials.json"),
    );
    renderFlow(flow.ui);

    const alert = screen.getByRole("alert");
    expect(within(alert).getByText("Sign-in failed")).toBeInTheDocument();
    expect(
      within(alert).getByText(/The provided credentials are invalid, check for spelling mistakes/),
    ).toHaveAttribute("data-message-id", "4000006");
    expect(screen.getByLabelText("Email")).toHaveValue("wrong-email@example.org");
  });

  it("speaks Spanish from the same nodes", () => {
    const flow = LoginFlowFromJSON(
      vendorJson("elements.login.1fa.password.wrong-credentials.json"),
    );
    renderFlow(flow.ui, "es");

    expect(screen.getByLabelText("Correo electrónico")).toBeInTheDocument();
    expect(screen.getByLabelText("Contraseña")).toBeInTheDocument();
    expect(
      screen.getByRole("button", { name: "Iniciar sesión con contraseña" }),
    ).toBeInTheDocument();
    expect(screen.getByRole("alert")).toHaveTextContent("Las credenciales no son válidas.");
  });
});

describe("a flow rendered again after a failed submission", () => {
  /** Any screen: the flow from its loader, replaced by the one its action answers. */
  function FlowScreen() {
    const loaded = useLoaderData<UiContainer>();
    const answered = useActionData<UiContainer | undefined>();
    const ui = answered ?? loaded;
    return (
      <>
        <FlowMessages messages={ui.messages} />
        <FlowForm flowId="f1" nodes={ui.nodes} />
      </>
    );
  }

  it("empties the password the user typed, as the server's answer does", async () => {
    const user = userEvent.setup();
    const initial = LoginFlowFromJSON(vendorJson("elements.login.1fa.password.initial.json"));
    const failed = LoginFlowFromJSON(
      vendorJson("elements.login.1fa.password.wrong-credentials.json"),
    );
    renderRoute({
      path: "/:lang/login",
      url: "/en/login?flow=f1",
      Component: FlowScreen,
      loader: () => initial.ui,
      action: () => failed.ui,
    });

    await user.type(await screen.findByLabelText("Email"), "jane@example.gov");
    await user.type(screen.getByLabelText("Password"), "wrong-password");
    expect(screen.getByLabelText("Password")).toHaveValue("wrong-password");
    await user.click(screen.getByRole("button", { name: "Sign in with password" }));

    expect(await screen.findByRole("alert")).toHaveTextContent(/credentials are invalid/);
    await waitFor(() => expect(screen.getByLabelText("Password")).toHaveValue(""));
  });

  it("keeps a typed password when the page navigates without a submission (e.g. ?confirm=)", async () => {
    const user = userEvent.setup();
    const initial = LoginFlowFromJSON(vendorJson("elements.login.1fa.password.initial.json"));
    let loads = 0;
    renderRoute({
      path: "/:lang/login",
      url: "/en/login?flow=f1",
      Component: () => (
        <>
          <FlowScreen />
          <Link to="?flow=f1&confirm=create-account">Create account</Link>
        </>
      ),
      loader: () => {
        loads += 1;
        return initial.ui;
      },
    });

    await user.type(await screen.findByLabelText("Password"), "typed-before");
    await user.click(screen.getByRole("link", { name: "Create account" }));
    // The navigation has landed once the loader ran again and the router is idle.
    await waitFor(() => expect(loads).toBe(2));
    await user.type(screen.getByLabelText("Email"), "jane@example.gov");
    expect(screen.getByLabelText("Password")).toHaveValue("typed-before");
  });
});

describe("a field the person types into, when the flow comes back with another value in it", () => {
  it("stays the same element and keeps what was typed (the answer, then the page's revalidation)", async () => {
    const user = userEvent.setup();
    const answered = RecoveryFlowFromJSON(vendorJson("elements.recovery.code.wrong-code.json"));
    // The same flow as read again, with the wrong code the person had posted in its field.
    const revalidated = answered.ui.nodes.map((node) =>
      isInputAttributes(node.attributes) && node.attributes.name === "code"
        ? { ...node, attributes: { ...node.attributes, value: "000000" } }
        : node,
    );
    function Revalidating() {
      const [nodes, setNodes] = useState(answered.ui.nodes);
      return (
        <>
          <FlowForm flowId="f1" nodes={nodes} />
          <button type="button" onClick={() => setNodes(revalidated)}>
            Revalidate
          </button>
        </>
      );
    }
    renderInPortal(() => <Revalidating />);

    const field = screen.getByRole("textbox", { name: "Recovery code" });
    await user.type(field, "123456");
    await user.click(screen.getByRole("button", { name: "Revalidate" }));

    expect(screen.getByRole("textbox", { name: "Recovery code" })).toBe(field);
    expect(field).toHaveValue("123456");
  });
});

describe("a form while its submission is in flight (spec §4)", () => {
  it("makes its inputs read-only and aria-disabled, posts what was typed, then gives them back", async () => {
    const user = userEvent.setup();
    const initial = LoginFlowFromJSON(vendorJson("elements.login.1fa.password.initial.json"));
    let release: () => void = () => undefined;
    let posted: FormData | undefined;
    renderRoute({
      path: "/:lang/login",
      url: "/en/login?flow=f1",
      Component: () => <FlowForm flowId="f1" nodes={useLoaderData<UiContainer>().nodes} />,
      loader: () => initial.ui,
      action: async ({ request }) => {
        posted = await request.formData();
        await new Promise<void>((resolve) => (release = resolve));
        return null;
      },
    });

    const email = await screen.findByLabelText(/^e-?mail$/i);
    await user.type(email, "jane@example.gov");
    await user.type(screen.getByLabelText("Password"), "typed-secret");
    await user.click(screen.getByRole("button", { name: "Sign in with password" }));

    await waitFor(() => expect(email).toHaveAttribute("readonly"));
    expect(email).toHaveAttribute("aria-disabled", "true");
    expect(email).toBeEnabled();
    expect(screen.getByLabelText("Password")).toHaveAttribute("readonly");
    await user.type(email, "-more");
    expect(email).toHaveValue("jane@example.gov");
    await waitFor(() => expect(posted).toBeDefined());
    expect(posted?.get("identifier")).toBe("jane@example.gov");
    expect(posted?.get("password")).toBe("typed-secret");
    expect(posted?.get("method")).toBe("password");

    release();
    await waitFor(() => expect(email).not.toHaveAttribute("readonly"));
    expect(email).not.toHaveAttribute("aria-disabled");
  });

  it("refuses to tick a checkbox while busy", async () => {
    const user = userEvent.setup();
    const initial = LoginFlowFromJSON(vendorJson("elements.login.1fa.password.initial.json"));
    let release: () => void = () => undefined;
    renderRoute({
      path: "/:lang/login",
      url: "/en/login?flow=f1",
      Component: () => (
        <FlowForm
          flowId="f1"
          nodes={useLoaderData<UiContainer>().nodes}
          beforeSubmit={<input type="checkbox" name="remember_me" aria-label="Remember me" />}
        />
      ),
      loader: () => initial.ui,
      action: () => new Promise((resolve) => (release = () => resolve(null))),
    });

    await user.click(await screen.findByRole("button", { name: "Sign in with password" }));
    const box = screen.getByRole("checkbox", { name: "Remember me" });
    await waitFor(() => expect(box).toHaveAttribute("aria-disabled", "true"));
    await user.click(box);
    expect(box).not.toBeChecked();
    release();
    await waitFor(() => expect(box).not.toHaveAttribute("aria-disabled"));
    await user.click(box);
    expect(box).toBeChecked();
  });
});

describe("the registration form from real flow JSON", () => {
  it("renders every kind of input the flow has", () => {
    const flow = RegistrationFlowFromJSON(
      vendorJson("elements.registration.password.initial.json"),
    );
    renderFlow(flow.ui);

    expect(screen.getByLabelText("Email")).toHaveAttribute("inputmode", "email");
    expect(screen.getByLabelText("Password")).toHaveAttribute("autocomplete", "new-password");
    expect(screen.getByRole("checkbox", { name: "Accept the terms of service" })).not.toBeChecked();
    expect(screen.getByLabelText("Name")).toHaveAttribute("name", "traits.nested.name");
    expect(screen.getByRole("button", { name: "Sign up" })).toHaveAttribute("value", "password");
  });

  it("puts missing-field messages on their fields, linked and marked invalid", () => {
    const flow = RegistrationFlowFromJSON(
      vendorJson("elements.registration.password.missing-fields.json"),
    );
    renderFlow(flow.ui);

    for (const label of ["Email", "Password"]) {
      const field = screen.getByLabelText(label);
      expect(field).toHaveAttribute("aria-invalid", "true");
      expect(field).toHaveAccessibleDescription("This field is required.");
    }
    expect(screen.getByLabelText("Name")).not.toHaveAttribute("aria-invalid");
  });

  it("words the password-policy message (4000032) plainly, filled from its context", () => {
    const flow = RegistrationFlowFromJSON(
      vendorJson("elements.registration.two-step.password-policy-error.json"),
    );
    renderFlow(flow.ui);

    expect(screen.getByLabelText("Password")).toHaveAccessibleDescription(
      "Your password is too short: use at least 8 characters (you entered 4).",
    );
  });
});

describe("FlowNode on the Kratos node snapshots", () => {
  it.each([
    ["kratos.snapshot.login.password.first-factor.nodes.json", ["ID", "Password"]],
    ["kratos.snapshot.registration.password.nodes.json", ["Password"]],
  ])("labels every visible input of %s", (file, labels) => {
    const nodes = nodeList(file);
    renderInPortal(() => nodes.map((node, index) => <FlowNode key={index} node={node} />));
    for (const label of labels) expect(screen.getByLabelText(label)).toBeInTheDocument();
  });

  it("falls back to the field name for schema traits without a title", () => {
    const nodes = nodeList("kratos.snapshot.registration.one-step.browser.json");
    renderInPortal(() => nodes.map((node, index) => <FlowNode key={index} node={node} />));
    expect(screen.getByLabelText("traits.numby")).toHaveAttribute("type", "number");
    expect(screen.getByRole("checkbox", { name: "traits.booly" })).toBeInTheDocument();
  });

  it("renders an image node and skips a text node without text", () => {
    const image = UiNodeFromJSON(vendorJson("kratos.snapshot.ui-node.img.json"));
    const text = UiNodeFromJSON(vendorJson("kratos.snapshot.ui-node.text.json"));
    const { container } = renderInPortal(() => (
      <>
        <FlowNode node={image} />
        <FlowNode node={text} />
      </>
    ));
    expect(container.querySelector("img")).toHaveAttribute("src", "image.jpg");
    expect(container.querySelector("p")).toBeNull();
  });

  it("shows a text node's message and never runs script nodes", () => {
    const text = UiNodeFromJSON({
      type: "text",
      group: "default",
      attributes: {
        node_type: "text",
        id: "notice",
        text: {
          id: 1010003,
          text: "Please confirm this action by verifying that it is you.",
          type: "info",
        },
      },
      messages: [],
      meta: {},
    });
    const script = UiNodeFromJSON({
      type: "script",
      group: "webauthn",
      attributes: {
        node_type: "script",
        id: "webauthn_script",
        src: "https://evil.example/x.js",
        async: true,
        referrerpolicy: "no-referrer",
        crossorigin: "anonymous",
        integrity: "",
        nonce: "",
        type: "text/javascript",
      },
      messages: [],
      meta: {},
    });
    const { container } = renderInPortal(() => (
      <>
        <FlowNode node={text} />
        <FlowNode node={script} />
      </>
    ));
    expect(
      screen.getByText("Please confirm this action by verifying that it is you."),
    ).toHaveAttribute("data-message-id", "1010003");
    expect(container.querySelector("script")).toBeNull();
  });
});
