import "@testing-library/jest-dom/vitest";
import { cleanup, configure } from "@testing-library/react";
import { afterEach } from "vitest";

// findBy*/waitFor wait for an event, not a time; their default 1 s limit is only how long they
// may wait. A navigation that runs a loader and renders (the settings "Are you sure?" step) took
// longer than that on a busy 2-core machine during a full run, so they get 5 s (issue 13).
configure({ asyncUtilTimeout: 5_000 });

afterEach(() => {
  cleanup();
});
