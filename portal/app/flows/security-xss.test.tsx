import { LoginFlowFromJSON, UiNodeFromJSON } from "@portal/client";
import type { UiNode } from "@portal/client";
import { describe, expect, it } from "vitest";
import { renderInPortal } from "../../test/render.tsx";
import { vendorJson } from "../../test/vendor-flows.ts";
import { FlowForm } from "./flow-form.tsx";
import { FlowMessages } from "./flow-messages.tsx";
import { FlowNode } from "./flow-node.tsx";

// XSS through what the identity service sends: trait values, message texts and contexts, node
// labels, anchor hrefs and image sources. Real flow JSON, modified to carry the payloads. (Script
// nodes are never rendered: flows/flow-form.test.tsx.)

const payloads = [
  "<script>alert(1)</script>",
  '"><img src=x onerror=alert(1)>',
  "'><svg onload=alert(1)>",
  "javascript:alert(1)",
];

/** Nothing the payloads could have created: no script, no foreign image or svg, no handlers. */
function expectInert(container: HTMLElement): void {
  expect(container.querySelector("script")).toBeNull();
  expect(container.querySelector("svg[onload]")).toBeNull();
  expect(container.querySelector('img[src="x"]')).toBeNull();
  for (const element of container.querySelectorAll("*")) {
    for (const attribute of element.attributes) {
      expect(attribute.name.startsWith("on"), `${element.tagName} ${attribute.name}`).toBe(false);
    }
    for (const name of ["href", "src", "action", "formaction"]) {
      const value = element.getAttribute(name);
      if (value !== null) {
        expect(
          [...value]
            .filter((c) => c.trim() !== "" && c.charCodeAt(0) >= 0x20)
            .join("")
            .toLowerCase(),
          `${name}=${value}`,
        ).not.toMatch(/^(javascript|vbscript|data:text)/);
      }
    }
  }
}

function loginFlowCarrying(payload: string) {
  const json = structuredClone(
    vendorJson("elements.login.1fa.password.wrong-credentials.json"),
  ) as {
    ui: {
      messages: unknown[];
      nodes: {
        attributes: Record<string, unknown>;
        meta: Record<string, unknown>;
        messages: unknown[];
      }[];
    };
  };
  // A message the portal has no translation for falls back to the service's text.
  json.ui.messages = [
    { id: 4999999, text: payload, type: "error", context: { reason: payload } },
    { id: 4000001, text: payload, type: "error", context: { reason: payload } },
  ];
  for (const node of json.ui.nodes) {
    if (node.attributes.name === "identifier") {
      node.attributes.value = payload;
      node.meta = {
        label: { id: 1070002, text: payload, type: "info", context: { title: payload } },
      };
      node.messages = [{ id: 4999998, text: payload, type: "error", context: { reason: payload } }];
    }
    if (node.attributes.name === "password") {
      node.meta = { label: { id: 4999997, text: payload, type: "info" } };
    }
  }
  return LoginFlowFromJSON(json);
}

describe("payloads in flow JSON render as text", () => {
  it("escapes trait values, message texts and contexts, and labels", () => {
    for (const payload of payloads) {
      const flow = loginFlowCarrying(payload);
      const { container, unmount } = renderInPortal(() => (
        <>
          <FlowMessages messages={flow.ui.messages} errorTitle="Sign-in failed" />
          <FlowForm flowId="f1" nodes={flow.ui.nodes} />
        </>
      ));
      expectInert(container);
      // The payload is still shown (or kept) verbatim, as text.
      expect(container.textContent, payload).toContain(payload);
      const identifier = container.querySelector<HTMLInputElement>('input[name="identifier"]');
      expect(identifier?.value).toBe(payload);
      unmount();
    }
  });

  it("never links to or loads a script URL from an anchor or image node", () => {
    const schemes = [
      "javascript:alert(1)",
      "JaVaScRiPt:alert(1)",
      " javascript:alert(1)",
      "java\tscript:alert(1)",
      "vbscript:msgbox(1)",
      "data:text/html,<script>alert(1)</script>",
    ];
    for (const url of schemes) {
      const anchor: UiNode = UiNodeFromJSON({
        type: "a",
        group: "default",
        attributes: {
          node_type: "a",
          id: "link",
          href: url,
          title: { id: 4999996, text: '"><img src=x onerror=alert(1)>', type: "info" },
        },
        messages: [],
        meta: {},
      });
      const image = vendorJson("kratos.snapshot.ui-node.img.json") as {
        attributes: Record<string, unknown>;
      };
      const hostileImage = UiNodeFromJSON({
        ...image,
        attributes: { ...image.attributes, src: url, id: "qr" },
      });
      const { container, unmount } = renderInPortal(() => (
        <>
          <FlowNode node={anchor} />
          <FlowNode node={hostileImage} />
        </>
      ));
      expectInert(container);
      expect(container.textContent).toContain('"><img src=x onerror=alert(1)>');
      unmount();
    }
  });

  it("keeps ordinary links and the QR code's data:image source", () => {
    const anchor = UiNodeFromJSON({
      type: "a",
      group: "default",
      attributes: {
        node_type: "a",
        id: "link",
        href: "https://sso.example.gov/help",
        title: { id: 4999996, text: "Help", type: "info" },
      },
      messages: [],
      meta: {},
    });
    const qr = UiNodeFromJSON({
      type: "img",
      group: "totp",
      attributes: {
        node_type: "img",
        id: "totp_qr",
        src: "data:image/png;base64,iVBORw0KGgo=",
        width: 256,
        height: 256,
      },
      messages: [],
      meta: {},
    });
    const { container } = renderInPortal(() => (
      <>
        <FlowNode node={anchor} />
        <FlowNode node={qr} />
      </>
    ));
    expect(container.querySelector("a#link")?.getAttribute("href")).toBe(
      "https://sso.example.gov/help",
    );
    expect(container.querySelector("img#totp_qr")?.getAttribute("src")).toBe(
      "data:image/png;base64,iVBORw0KGgo=",
    );
  });
});
