// @vitest-environment node
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import en from "./en.json";
import { beforeDocumentEnd, createPageStrings } from "./page-strings.server.ts";

function parse(script: string): unknown {
  return JSON.parse(/<script[^>]*>(.*)<\/script>$/s.exec(script)?.[1] ?? "null");
}

describe("a render's page strings", () => {
  it("hold what the render looked up, the browser's own field checks, and keys no catalogue has", () => {
    const page = createPageStrings();
    const catalogue = page.read("en");
    expect(catalogue["login.title"]).toBe(en["login.title"]);
    expect(catalogue["kratos.1999999"]).toBeUndefined();

    const sent = parse(page.script("n0nce")) as {
      strings: { en: Record<string, string> };
      absent: string[];
    };
    expect(sent.strings.en["login.title"]).toBe("Sign in");
    expect(sent.strings.en["kratos.4000002"]).toBe(en["kratos.4000002"]);
    expect(sent.strings.en).not.toHaveProperty("settings.title");
    expect(sent.absent).toEqual(["kratos.1999999"]);
    expect(page.script("n0nce")).toMatch(/^<script id="page-strings" [^>]*nonce="n0nce">/);
  });

  it("cannot end their element early", () => {
    const page = createPageStrings();
    void page.read("en")["</script><script>alert(1)</script>"];
    const script = page.script("n");
    expect(script.match(/<\/script>/g)).toHaveLength(1);
    expect(parse(script)).toMatchObject({ absent: ["</script><script>alert(1)</script>"] });
  });

  it("go just before the document's end, written once the rest has rendered", async () => {
    const chunks = ["<!DOCTYPE html><html><body><h1>x</h1>", "<script>y</script></body></html>"];
    const out = Readable.from(chunks.map((text) => Buffer.from(text))).pipe(
      beforeDocumentEnd(() => "<script id=s></script>"),
    );
    let html = "";
    for await (const chunk of out) html += String(chunk);
    expect(html).toBe(
      "<!DOCTYPE html><html><body><h1>x</h1><script>y</script><script id=s></script></body></html>",
    );
  });

  it("pass what React writes in one go on as one chunk", async () => {
    const stream = beforeDocumentEnd(() => "<script id=s></script>");
    const out: string[] = [];
    stream.on("data", (chunk: Buffer) => out.push(chunk.toString()));
    const ended = new Promise((resolve) => stream.on("end", resolve));
    for (const part of ["<!DOCTYPE html><html><body>", "<h1>x</h1>", "<p>y</p>"])
      stream.write(part);
    await new Promise((resolve) => setImmediate(resolve));
    stream.end("</body></html>");
    await ended;
    expect(out).toEqual([
      "<!DOCTYPE html><html><body><h1>x</h1><p>y</p>",
      "<script id=s></script></body></html>",
    ]);
  });
});
