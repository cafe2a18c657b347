import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { Alert } from "./alert.tsx";

describe("Alert", () => {
  it("interrupts for errors and is polite otherwise", () => {
    render(
      <>
        <Alert status="error" title="Sign-in failed">
          <p>Wrong password.</p>
        </Alert>
        <Alert status="warning">
          <p>Careful.</p>
        </Alert>
        <Alert status="loading">
          <p>Loading…</p>
        </Alert>
      </>,
    );

    expect(screen.getByRole("alert")).toHaveTextContent("Sign-in failedWrong password.");
    const statuses = screen.getAllByRole("status");
    expect(statuses.map((status) => status.textContent)).toEqual(["Careful.", "Loading…"]);
    expect(statuses[1]).toHaveAttribute("aria-busy", "true");
  });
});
