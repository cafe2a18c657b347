import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { Form, Link, Outlet, createRoutesStub, redirect } from "react-router";
import { describe, expect, it } from "vitest";
import { RouteFocus, pageOf } from "./route-focus.tsx";

function Page(props: { title: string }) {
  return (
    <>
      <h1>{props.title}</h1>
      <Form method="post">
        <input aria-label="Code" name="code" />
        <button type="submit">Send</button>
      </Form>
      <Link to="/es/registration">Español</Link>
    </>
  );
}

function renderPages() {
  const Stub = createRoutesStub([
    {
      path: "/",
      Component: () => (
        <>
          <main>
            <Outlet />
          </main>
          <RouteFocus />
        </>
      ),
      children: [
        {
          path: ":lang/registration",
          Component: () => <Page title="Create your account" />,
          action: () => redirect("/en/verification"),
        },
        { path: ":lang/verification", Component: () => <Page title="Verify your account" /> },
      ],
    },
  ]);
  render(<Stub initialEntries={["/en/registration"]} />);
}

describe("focus after a navigation to another page", () => {
  it("moves to the new page's heading after a successful submission", async () => {
    const user = userEvent.setup();
    renderPages();
    await user.type(await screen.findByLabelText("Code"), "123456");
    expect(screen.getByLabelText("Code")).toHaveFocus();

    await user.click(screen.getByRole("button", { name: "Send" }));

    const heading = await screen.findByRole("heading", { name: "Verify your account" });
    await waitFor(() => expect(heading).toHaveFocus());
    expect(heading).toHaveAttribute("tabindex", "-1");
  });

  it("leaves focus alone on the first render and on a language switch", async () => {
    const user = userEvent.setup();
    renderPages();
    const heading = await screen.findByRole("heading", { name: "Create your account" });
    expect(heading).not.toHaveFocus();

    await user.click(screen.getByRole("link", { name: "Español" }));
    await waitFor(() => expect(screen.getByRole("link", { name: "Español" })).toHaveFocus());
    expect(screen.getByRole("heading", { name: "Create your account" })).not.toHaveFocus();
  });

  it("treats /en/x and /es/x as one page", () => {
    expect(pageOf("/en/login")).toBe("/login");
    expect(pageOf("/es/login")).toBe("/login");
    expect(pageOf("/en")).toBe("");
    expect(pageOf("/english/x")).toBe("/english/x");
  });
});
