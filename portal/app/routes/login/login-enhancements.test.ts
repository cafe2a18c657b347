import { afterEach, describe, expect, it, vi } from "vitest";
import { markerKey } from "./oauth2-marker-key.ts";

// Whether the marker's module was imported: a plain sign-in must not download it.
const loads = vi.hoisted(() => ({ count: 0 }));
vi.mock("./oauth2-marker.ts", async (original) => {
  loads.count++;
  return await original();
});

const { enhanceLogin } = await import("./login-enhancements.ts");

function page(challenge: boolean) {
  return { form: null, challenge, locale: "en", interrupted: vi.fn() };
}

afterEach(() => window.sessionStorage.clear());

describe("the login page's OAuth challenge marker", () => {
  it("is not loaded for a sign-in without a challenge in a tab holding no marker", async () => {
    enhanceLogin(page(false));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(loads.count).toBe(0);
  });

  it("loads and sets the marker for a flow with a challenge", async () => {
    enhanceLogin(page(true));
    await vi.waitFor(() => expect(window.sessionStorage.getItem(markerKey)).toBe("init"));
    expect(loads.count).toBe(1);
  });

  it("shows the interrupted alert on a plain page while the tab holds an invalid marker", async () => {
    window.sessionStorage.setItem(markerKey, "invalid");
    const shown = page(false);
    enhanceLogin(shown);
    await vi.waitFor(() => expect(shown.interrupted).toHaveBeenCalledWith(true));
  });
});
