import { afterEach, describe, expect, it, vi } from "vitest";
import { postSignOut } from "./leave-page.ts";

afterEach(() => {
  vi.restoreAllMocks();
  document.body.replaceChildren();
});

describe("postSignOut", () => {
  it("submits a POST form to the sign-out address (a GET of /logout only asks first)", () => {
    const submitted: HTMLFormElement[] = [];
    vi.spyOn(HTMLFormElement.prototype, "submit").mockImplementation(function (
      this: HTMLFormElement,
    ) {
      submitted.push(this);
    });

    postSignOut("/es/logout");

    expect(submitted).toHaveLength(1);
    expect(submitted[0]?.method).toBe("post");
    expect(new URL(submitted[0]!.action).pathname).toBe("/es/logout");
  });
});
