import { describe, expect, it, vi } from "vitest";
import { markerKey } from "./oauth2-marker-key.ts";
import {
  markerOnDifferentLogin,
  markerOnShow,
  markerOnSignIn,
  reloadDelayMs,
} from "./oauth2-marker.ts";
import type { MarkerEnvironment } from "./oauth2-marker.ts";

function memoryStorage(initial?: string) {
  const values = new Map<string, string>(initial ? [[markerKey, initial]] : []);
  return {
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (key: string, value: string) => void values.set(key, value),
    removeItem: (key: string) => void values.delete(key),
    values,
  };
}

function environment(initial?: string) {
  const storage = memoryStorage(initial);
  const steps: string[] = [];
  let release: () => void = () => undefined;
  const env: MarkerEnvironment = {
    storage,
    closeWindow: () => steps.push("close"),
    signOut: (url) => {
      steps.push(`sign out ${url}`);
      return Promise.resolve();
    },
    wait: (ms) => {
      steps.push(`wait ${ms}`);
      return new Promise((resolve) => (release = resolve));
    },
    go: (url) => steps.push(`go ${url}`),
  };
  return { env, storage, steps, release: () => release() };
}

const page = (challenge: boolean) => ({ challenge, locale: "es", interrupted: vi.fn() });

describe("the OAuth challenge marker", () => {
  it("is set to init by a flow with a login challenge (also over an old invalid)", () => {
    const { env, storage } = environment("invalid");
    const shown = page(true);
    markerOnShow(shown, env);
    expect(storage.values.get(markerKey)).toBe("init");
    expect(shown.interrupted).toHaveBeenCalledWith(false);
  });

  it("while invalid, makes every login page show the message (reloads too) and stays invalid", () => {
    const { env, storage } = environment("invalid");
    for (let reload = 0; reload < 3; reload += 1) {
      const shown = page(false);
      markerOnShow(shown, env);
      expect(shown.interrupted).toHaveBeenCalledWith(true);
      expect(storage.values.get(markerKey)).toBe("invalid");
    }
  });

  it("is cleared, and the message hidden, when the user submits the sign-in form", () => {
    const { env, storage } = environment("invalid");
    const shown = page(false);
    markerOnShow(shown, env);
    markerOnSignIn(shown, env);
    expect(shown.interrupted).toHaveBeenLastCalledWith(false);
    expect(storage.values.has(markerKey)).toBe(false);
  });

  it("leaves an init marker alone when the user signs in", () => {
    const { env, storage } = environment("init");
    const shown = page(true);
    markerOnSignIn(shown, env);
    expect(storage.values.get(markerKey)).toBe("init");
    expect(shown.interrupted).not.toHaveBeenCalled();
  });

  it("drops a stale init on a login page without a challenge", () => {
    const { env, storage } = environment("init");
    const shown = page(false);
    markerOnShow(shown, env);
    expect(storage.values.has(markerKey)).toBe(false);
    expect(shown.interrupted).not.toHaveBeenCalled();
  });

  it("on a different login while init: invalid, close, sign out, then /login after 500 ms", async () => {
    const { env, storage, steps, release } = environment("init");

    expect(markerOnDifferentLogin(page(true), env)).toBe(true);
    expect(storage.values.get(markerKey)).toBe("invalid");
    await vi.waitFor(() => expect(steps).toContain(`wait ${reloadDelayMs}`));
    expect(steps).toEqual(["close", "sign out /es/logout", "wait 500"]);

    release();
    await vi.waitFor(() => expect(steps.at(-1)).toBe("go /es/login"));
  });

  it("still reloads when the window cannot close and sign-out fails", async () => {
    const { env, steps, release } = environment("init");
    env.closeWindow = () => {
      throw new Error("Scripts may close only the windows that were opened by them.");
    };
    env.signOut = () => Promise.reject(new Error("offline"));
    markerOnDifferentLogin(page(true), env);
    await vi.waitFor(() => expect(steps).toEqual(["wait 500"]));
    release();
    await vi.waitFor(() => expect(steps.at(-1)).toBe("go /es/login"));
  });

  it.each([
    ["no challenge on the page", false, "init"],
    ["the marker is not init", true, undefined],
  ])("leaves the link alone with %s", (_, challenge, marker) => {
    const { env, steps } = environment(marker);
    expect(markerOnDifferentLogin(page(challenge), env)).toBe(false);
    expect(steps).toEqual([]);
  });

  it("works when storage is refused", () => {
    const { env } = environment();
    env.storage = {
      getItem: () => {
        throw new Error("SecurityError");
      },
      setItem: () => {
        throw new Error("SecurityError");
      },
      removeItem: () => undefined,
    };
    expect(() => markerOnShow(page(true), env)).not.toThrow();
    expect(markerOnDifferentLogin(page(true), env)).toBe(false);
  });
});
