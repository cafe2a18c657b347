import { UiNodeFromJSON } from "@portal/client";
import type { UiNode } from "@portal/client";
import { describe, expect, it } from "vitest";
import { vendorJson } from "../../test/vendor-flows.ts";
import {
  isAnchorAttributes,
  isHiddenInputNode,
  isImageAttributes,
  isInputNode,
  isRecord,
  isScriptAttributes,
  isSubmitNode,
  isTextAttributes,
} from "./node-guards.ts";

function nodesOf(file: string): UiNode[] {
  const json = vendorJson(file);
  const raw = Array.isArray(json) ? json : isRecord(json) && isRecord(json.ui) ? json.ui.nodes : [];
  return Array.isArray(raw) ? raw.map((node) => UiNodeFromJSON(node)) : [];
}

describe("node type guards on real Kratos nodes", () => {
  const login = nodesOf("elements.login.1fa.password.initial.json");

  it("tell hidden inputs, fields and submit buttons apart", () => {
    expect(login.filter(isHiddenInputNode).map((n) => n.attributes)).toMatchObject([
      { name: "csrf_token" },
    ]);
    expect(login.filter(isSubmitNode).map((n) => n.attributes)).toMatchObject([
      { name: "method", value: "password" },
    ]);
    expect(login.filter(isInputNode)).toHaveLength(4);
  });

  it("recognise image, text, anchor and script nodes", () => {
    const image = UiNodeFromJSON(vendorJson("kratos.snapshot.ui-node.img.json"));
    const text = UiNodeFromJSON(vendorJson("kratos.snapshot.ui-node.text.json"));
    expect(isImageAttributes(image.attributes)).toBe(true);
    expect(isTextAttributes(image.attributes)).toBe(false);
    expect(isTextAttributes(text.attributes)).toBe(true);
    expect(isInputNode(text)).toBe(false);

    const anchor = UiNodeFromJSON({
      type: "a",
      group: "default",
      attributes: {
        node_type: "a",
        id: "link",
        href: "https://example.gov",
        title: { id: 1, text: "x", type: "info" },
      },
      messages: [],
      meta: {},
    });
    const script = UiNodeFromJSON({
      type: "script",
      group: "webauthn",
      attributes: {
        node_type: "script",
        id: "webauthn_script",
        src: "/x.js",
        async: true,
        referrerpolicy: "",
        crossorigin: "",
        integrity: "",
        nonce: "",
        type: "",
      },
      messages: [],
      meta: {},
    });
    expect(isAnchorAttributes(anchor.attributes)).toBe(true);
    expect(isScriptAttributes(script.attributes)).toBe(true);
    expect(isAnchorAttributes(script.attributes)).toBe(false);
  });

  it("find every input across the snapshot node lists", () => {
    for (const file of [
      "kratos.snapshot.login.password.first-factor.nodes.json",
      "kratos.snapshot.registration.password.nodes.json",
      "kratos.snapshot.registration.one-step.browser.json",
    ]) {
      const nodes = nodesOf(file);
      expect(nodes.length).toBeGreaterThan(0);
      expect(nodes.every(isInputNode)).toBe(true);
    }
  });
});

describe("isRecord", () => {
  it("accepts plain objects only", () => {
    expect(isRecord({ a: 1 })).toBe(true);
    expect(isRecord([])).toBe(false);
    expect(isRecord(null)).toBe(false);
    expect(isRecord("x")).toBe(false);
  });
});
