import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { ToasterHost, toast } from "./toasts.tsx";

describe("toasts", () => {
  it("loads the toaster on the first toast and shows what was asked before it was ready", async () => {
    render(<ToasterHost theme="light" closeLabel="Close notification" />);
    expect(document.querySelector("[data-sonner-toaster]")).toBeNull();

    toast.error("Something went wrong. Please try again.");

    expect(await screen.findByText("Something went wrong. Please try again.")).toBeInTheDocument();
    expect(document.querySelector("[data-sonner-toaster]")).not.toBeNull();
  });
});
