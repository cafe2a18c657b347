import { act, fireEvent, render, screen } from "@testing-library/react";
import { startTransition, useState } from "react";
import type { ComponentType } from "react";
import { hydrateRoot } from "react-dom/client";
import type { Root } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { lazyCard } from "./lazy-card.tsx";

/** A stand-in card: a field and a button that counts, so hydration shows. */
function Greeting(props: { name: string }) {
  const [clicks, setClicks] = useState(0);
  return (
    <section id="greeting" aria-label="Greeting">
      <label>
        Name <input name="name" defaultValue={props.name} />
      </label>
      <button type="button" onClick={() => setClicks((count) => count + 1)}>
        {`Clicked ${clicks}`}
      </button>
    </section>
  );
}

/** The page around the card: hydrated on its own, whatever the card's code does. */
function Page(props: { Card: ComponentType<{ name: string }> }) {
  const [clicks, setClicks] = useState(0);
  return (
    <main>
      <button type="button" onClick={() => setClicks((count) => count + 1)}>
        {`Outside ${clicks}`}
      </button>
      <props.Card name="Ada" />
    </main>
  );
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => (resolve = settle));
  return { promise, resolve };
}

/** The server's HTML of the page: the server holds the card's module before it renders. */
async function serverHtml(): Promise<string> {
  vi.stubEnv("SSR", true);
  try {
    const card = lazyCard("greeting", () => Promise.resolve(Greeting));
    await card.ready;
    return renderToString(<Page Card={card.Component} />);
  } finally {
    vi.unstubAllEnvs();
  }
}

afterEach(() => {
  document.body.innerHTML = "";
});

describe("a settings card whose code is a chunk of its own", () => {
  it("is complete in the server's HTML (a plain form without JavaScript)", async () => {
    const html = await serverHtml();

    expect(html).toContain('<input name="name" value="Ada"/>');
    expect(html).toContain("Clicked 0");
    // In a Suspense boundary of its own, already resolved: nothing is left to stream.
    expect(html).toContain("<!--$-->");
    expect(html).not.toContain("<!--$?-->");
  });

  it("keeps its server HTML and what was typed while its code loads, then hydrates", async () => {
    const container = document.createElement("div");
    container.innerHTML = await serverHtml();
    document.body.append(container);
    const field = screen.getByRole("textbox", { name: "Name" });
    // Typed before any script ran: the page changed, React saw nothing.
    (field as HTMLInputElement).value = "Grace";
    const code = deferred<typeof Greeting>();
    const card = lazyCard("greeting", () => code.promise);

    let root: Root | undefined;
    act(() => {
      root = hydrateRoot(container, <Page Card={card.Component} />, { onRecoverableError: fail });
    });
    // The rest of the page works; the card is still the server's, with the typing.
    fireEvent.click(screen.getByRole("button", { name: "Outside 0" }));
    expect(screen.getByRole("button", { name: "Outside 1" })).toBeInTheDocument();
    expect(screen.getByRole("textbox", { name: "Name" })).toBe(field);
    expect(field).toHaveValue("Grace");

    await act(async () => {
      code.resolve(Greeting);
      await code.promise;
    });
    fireEvent.click(screen.getByRole("button", { name: "Clicked 0" }));
    expect(screen.getByRole("button", { name: "Clicked 1" })).toBeInTheDocument();
    expect(screen.getByRole("textbox", { name: "Name" })).toBe(field);
    expect(field).toHaveValue("Grace");
    act(() => root?.unmount());
  });

  it("mounted by a client navigation, keeps the previous page until its code is there", async () => {
    const code = deferred<typeof Greeting>();
    const card = lazyCard("greeting", () => code.promise);
    function Navigation() {
      const [at, setAt] = useState("before");
      if (at === "card") return <card.Component name="Ada" />;
      return (
        <button type="button" onClick={() => startTransition(() => setAt("card"))}>
          Previous page
        </button>
      );
    }
    render(<Navigation />);

    fireEvent.click(screen.getByRole("button", { name: "Previous page" }));
    // No empty fallback in between: the transition waits for the card.
    expect(screen.getByText("Previous page")).toBeInTheDocument();

    await act(async () => {
      code.resolve(Greeting);
      await code.promise;
    });
    expect(screen.queryByText("Previous page")).toBeNull();
    expect(screen.getByRole("textbox", { name: "Name" })).toHaveValue("Ada");
  });
});

function fail(error: unknown): never {
  throw error instanceof Error ? error : new Error(String(error));
}
