import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

type Module = typeof import("./first-interaction.ts");
let module: Module;

// A fresh module per test: it remembers, for the whole document, that someone interacted.
beforeEach(async () => {
  vi.resetModules();
  module = await import("./first-interaction.ts");
});
afterEach(() => {
  document.body.innerHTML = "";
});

describe("onFirstInteraction", () => {
  it("waits for the person: nothing runs on its own, the first interaction runs it once", () => {
    const callback = vi.fn();
    module.onFirstInteraction(callback);
    window.dispatchEvent(new Event("load"));
    document.dispatchEvent(new Event("visibilitychange"));
    expect(callback).not.toHaveBeenCalled();

    document.body.dispatchEvent(new Event("keydown", { bubbles: true }));
    document.body.dispatchEvent(new Event("pointerdown", { bubbles: true }));
    expect(callback).toHaveBeenCalledOnce();
  });

  it.each(["pointermove", "pointerdown", "keydown", "touchstart", "focusin"])(
    "counts %s as an interaction",
    (type) => {
      const callback = vi.fn();
      module.onFirstInteraction(callback);
      document.body.dispatchEvent(new Event(type, { bubbles: true }));
      expect(callback).toHaveBeenCalledOnce();
    },
  );

  it("runs at once when a field already has the focus, or someone already interacted", () => {
    document.body.innerHTML = "<input aria-label='Email'>";
    document.querySelector("input")?.focus();
    const focused = vi.fn();
    module.onFirstInteraction(focused);
    expect(focused).toHaveBeenCalledOnce();

    const later = vi.fn();
    module.onFirstInteraction(later);
    expect(later).toHaveBeenCalledOnce();
  });

  it("stops waiting when asked (the form went away)", () => {
    const callback = vi.fn();
    const stop = module.onFirstInteraction(callback);
    stop();
    document.body.dispatchEvent(new Event("keydown", { bubbles: true }));
    expect(callback).not.toHaveBeenCalled();
  });
});
