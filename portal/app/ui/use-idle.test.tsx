import { act, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { idleTimeoutMs, useIdle } from "./use-idle.ts";

afterEach(() => {
  vi.unstubAllGlobals();
});

function Probe() {
  return <p>{useIdle() ? "idle" : "busy"}</p>;
}

describe("useIdle", () => {
  it("turns true only once the browser reports idle time after mounting", () => {
    const callbacks: (() => void)[] = [];
    const request = vi.fn((callback: () => void, options?: IdleRequestOptions) => {
      expect(options?.timeout).toBe(idleTimeoutMs);
      callbacks.push(callback);
      return callbacks.length;
    });
    vi.stubGlobal("requestIdleCallback", request);
    vi.stubGlobal("cancelIdleCallback", vi.fn());
    const { unmount } = render(<Probe />);
    expect(screen.getByText("busy")).toBeInTheDocument();
    expect(request).toHaveBeenCalledOnce();

    act(() => callbacks[0]?.());
    expect(screen.getByText("idle")).toBeInTheDocument();
    unmount();
  });

  it("cancels its request when the page goes first", () => {
    vi.stubGlobal(
      "requestIdleCallback",
      vi.fn(() => 7),
    );
    const cancel = vi.fn();
    vi.stubGlobal("cancelIdleCallback", cancel);
    const { unmount } = render(<Probe />);
    unmount();
    expect(cancel).toHaveBeenCalledWith(7);
  });
});
