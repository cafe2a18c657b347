import { StrictMode, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";
import { pageStringsReady, readPageStrings } from "./i18n/read-page-strings.ts";

function hydrate() {
  readPageStrings(document);
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <HydratedRouter />
      </StrictMode>,
    );
  });
}

// The page's strings come last in the document (after every part rendered on the server):
// hydrating before the parser reached them would render the page without its texts.
if (pageStringsReady(document)) hydrate();
else document.addEventListener("DOMContentLoaded", hydrate, { once: true });
