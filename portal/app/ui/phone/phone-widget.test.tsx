import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { PhoneField } from "./phone-field.tsx";
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
  // In the isolated project: the picker's chunk is loaded by this test, not by an earlier file.
  it("takes over a number typed into the plain input while the picker was loading", async () => {
    const { container } = render(
      <>
        <label htmlFor="phone">Phone number</label>
        <PhoneField {...props} />
      </>,
    );
    // The picker's chunk has not arrived yet: the person types into the plain input.
    const plain = screen.getByLabelText("Phone number");
    expect(plain).toHaveAttribute("type", "tel");
    expect(screen.queryByRole("combobox", { name: "Country" })).toBeNull();
    plain.focus();
    fireEvent.change(plain, { target: { value: "(202) 555-0123" } });

    // The country select is the picker's; once it is there, the plain input is gone.
    await screen.findByRole("combobox", { name: "Country" });
    expect(postedValue(container)).toBe("+12025550123");
    const picker = screen.getByLabelText("Phone number");
    expect(picker).toHaveValue("+1 202 555 0123");
    // The person goes on typing where they were (focus moves in an effect after the swap: awaited).
    await waitFor(() => expect(picker).toHaveFocus());
    expect(picker).toHaveProperty("selectionStart", "+1 202 555 0123".length);
  });

  it("starts from the server's value when nothing was typed", () => {
    const { container } = render(<PhoneWidget {...props} defaultValue="+12025550188" />);
    expect(postedValue(container)).toBe("+12025550188");
  });
});
