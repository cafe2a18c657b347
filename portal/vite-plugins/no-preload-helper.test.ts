import { describe, expect, it } from "vitest";
import { preloadHelperCode } from "./no-preload-helper.ts";

describe("noPreloadHelper", () => {
  it("replaces Vite's helper with one that only runs the import, failures included", async () => {
    const url = `data:text/javascript,${encodeURIComponent(preloadHelperCode)}`;
    const { __vitePreload } = (await import(/* @vite-ignore */ url)) as {
      __vitePreload: (load: () => Promise<unknown>, deps?: string[]) => Promise<unknown>;
    };
    await expect(__vitePreload(() => Promise.resolve("module"), [])).resolves.toBe("module");
    await expect(__vitePreload(() => Promise.reject(new Error("offline")))).rejects.toThrow(
      "offline",
    );
  });
});
