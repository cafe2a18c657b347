import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import PhoneWidget from "./phone-widget.tsx";

const props = {
  id: "phone",
  name: "email",
  locale: "en" as const,
  countryLabel: "Country",
  inputClassName: "",
};

function postedValue(container: HTMLElement): string | null {
  return (
    container.querySelector<HTMLInputElement>('input[type="hidden"][name="email"]')?.value ?? null
  );
}

describe("the phone number picker", () => {
  it("takes over a number typed into the plain input while the picker was loading", () => {
    // The plain <input type="tel"> the page shows until the picker's chunk arrives.
    const plain = document.createElement("input");
    plain.id = "phone";
    plain.value = "(202) 555-0123";
    document.body.append(plain);

    const { container } = render(<PhoneWidget {...props} />);
    plain.remove();

    expect(postedValue(container)).toBe("+12025550123");
    expect(screen.getByRole("textbox")).toHaveValue("+1 202 555 0123");
  });

  it("starts from the server's value when nothing was typed", () => {
    const { container } = render(<PhoneWidget {...props} defaultValue="+12025550188" />);
    expect(postedValue(container)).toBe("+12025550188");
  });
});
