// @vitest-environment node
import { describe, expect, it } from "vitest";
import { addressScript, searchWithFlow } from "./page-address.ts";

describe("the address a created flow's page renders at", () => {
  it("adds the flow to the request's own query text, unchanged", () => {
    expect(searchWithFlow("", "f1")).toBe("?flow=f1");
    expect(searchWithFlow("?return_to=http%3A%2F%2Fa%2F&x=%7E", "f1")).toBe(
      "?return_to=http%3A%2F%2Fa%2F&x=%7E&flow=f1",
    );
  });

  it("puts it into the address bar with a script that the query cannot close or escape", () => {
    const script = addressScript('?q=</script><script>alert(1)</script>"&flow=f1', "n0nce");
    expect(script.startsWith('<script nonce="n0nce">history.replaceState(')).toBe(true);
    // One element: the visitor's text neither ends it nor leaves the JSON string it sits in.
    expect(script.match(/<\/script>/g)).toHaveLength(1);
    expect(script).toContain(String.raw`\u003c/script>`);
    expect(script).toContain(String.raw`\"&flow=f1"+location.hash)`);
  });
});
