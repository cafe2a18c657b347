import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { renderRoute } from "../../../test/route-stub.tsx";
import { CreateAccount } from "./create-account.tsx";

// In the isolated project: whether the question's dialog module was imported. A sign-in page
// that does not show the question must not download it (DESIGN §6 budget).
const loads = vi.hoisted(() => ({ count: 0 }));
vi.mock("./create-account-dialog.tsx", async (original) => {
  loads.count++;
  return await original();
});

function renderCreateAccount() {
  renderRoute({
    path: "/:lang/login",
    url: "/en/login?flow=f1",
    Component: () => <CreateAccount openOnLoad={false} query="" />,
    loader: () => null,
  });
}

describe("the create-account question's dialog", () => {
  it("is not loaded until the question is asked, then opens as a modal", async () => {
    const user = userEvent.setup();
    const prototype = HTMLDialogElement.prototype;
    prototype.showModal = function showModal(this: HTMLDialogElement) {
      this.setAttribute("open", "");
    };
    try {
      renderCreateAccount();
      const link = await screen.findByRole("link", { name: "Create account" });
      expect(screen.queryByRole("dialog", { hidden: true })).toBeNull();
      expect(loads.count).toBe(0);

      await user.click(link);
      expect(await screen.findByRole("dialog", { name: "Create a new account?" })).toHaveAttribute(
        "open",
      );
      expect(loads.count).toBe(1);
    } finally {
      Reflect.deleteProperty(prototype, "showModal");
    }
  });
});
