import { describe, expect, it } from "vitest";
import { applyJsonPatch, JsonPatchError } from "./json-patch.ts";

describe("JSON Patch (RFC 6902)", () => {
  const document = { a: 1, list: ["x", "y"], nested: { "b/c": 2, "d~e": 3 } };

  it("applies add, remove, replace, move, copy and test", () => {
    const patched = applyJsonPatch(document, [
      { op: "test", path: "/a", value: 1 },
      { op: "replace", path: "/a", value: 10 },
      { op: "add", path: "/list/1", value: "between" },
      { op: "add", path: "/list/-", value: "end" },
      { op: "remove", path: "/list/0" },
      { op: "copy", from: "/nested/b~1c", path: "/copied" },
      { op: "move", from: "/nested/d~0e", path: "/moved" },
      { op: "add", path: "/new", value: { deep: true } },
    ]);
    expect(patched).toEqual({
      a: 10,
      list: ["between", "y", "end"],
      nested: { "b/c": 2 },
      copied: 2,
      moved: 3,
      new: { deep: true },
    });
    // The input is left alone.
    expect(document.list).toEqual(["x", "y"]);
  });

  it("refuses what cannot be applied", () => {
    const failing: unknown[] = [
      { op: "replace", path: "/a" },
      [{ op: "replace", path: "/missing", value: 1 }],
      [{ op: "remove", path: "/list/5" }],
      [{ op: "add", path: "/list/01", value: 1 }],
      [{ op: "test", path: "/a", value: 2 }],
      [{ op: "jump", path: "/a" }],
      [{ op: "add", path: "a", value: 1 }],
      [{ op: "move", path: "/a" }],
      [{ op: "remove", path: "" }],
    ];
    for (const patch of failing) {
      expect(() => applyJsonPatch(document, patch)).toThrow(JsonPatchError);
    }
  });

  it("protects frozen paths", () => {
    expect(() =>
      applyJsonPatch(document, [{ op: "replace", path: "/a", value: 2 }], ["/a"]),
    ).toThrow(/cannot be changed/);
    expect(() =>
      applyJsonPatch(document, [{ op: "move", from: "/a", path: "/z" }], ["/a"]),
    ).toThrow(/cannot be changed/);
  });
});
