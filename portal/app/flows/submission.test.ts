import { describe, expect, it } from "vitest";
import { formToJson, stringField } from "./submission.ts";

function form(entries: Array<[string, string]>): FormData {
  const data = new FormData();
  for (const [name, value] of entries) data.append(name, value);
  return data;
}

describe("formToJson", () => {
  it("nests dotted names the way the identity service's JSON expects", () => {
    expect(
      formToJson(
        form([
          ["csrf_token", "t"],
          ["traits.email", "jane@example.gov"],
          ["traits.name.first", "Jane"],
          ["method", "password"],
        ]),
      ),
    ).toEqual({
      csrf_token: "t",
      traits: { email: "jane@example.gov", name: { first: "Jane" } },
      method: "password",
    });
  });

  it("leaves out the portal's own fields", () => {
    expect(
      formToJson(
        form([
          ["password", "p"],
          ["confirm_password", "p"],
        ]),
        ["confirm_password"],
      ),
    ).toEqual({ password: "p" });
  });

  it("ignores names that would reach Object.prototype", () => {
    const body = formToJson(
      form([
        ["__proto__.polluted", "yes"],
        ["constructor.x", "y"],
      ]),
    );
    expect(body).toEqual({});
    expect(Object.prototype).not.toHaveProperty("polluted");
  });

  it("ignores uploaded files", () => {
    const data = form([["a", "1"]]);
    data.append("file", new Blob(["x"]), "x.txt");
    expect(formToJson(data)).toEqual({ a: "1" });
  });
});

describe("stringField", () => {
  it("reads strings and nothing else", () => {
    expect(stringField({ a: "x", b: 1 }, "a")).toBe("x");
    expect(stringField({ a: "x", b: 1 }, "b")).toBeUndefined();
  });
});
