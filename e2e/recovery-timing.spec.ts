import { expect, test, type APIRequestContext } from "@playwright/test";
import { portalUrl } from "./playwright.config.ts";
import { createPerson, uniqueEmail } from "./support.ts";
import { scaled } from "./timing.ts";

// Issue 12 §4: asking for a recovery code must not tell, by how long the portal takes to answer,
// whether the address has an account (it took 34 ms for a known address, 18 ms for an unknown
// one). Measured through the portal as a browser without JavaScript posts the form.

const rounds = 50;
const warmUps = 5;
const sent = "An email containing a recovery code has been sent";

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** A fresh recovery flow (each send gets its own, as each visitor would). */
async function newFlow(request: APIRequestContext): Promise<{ flow: string; csrf: string }> {
  const page = await request.get("/en/recovery");
  expect(page.status()).toBe(200);
  const flow = new URL(page.url()).searchParams.get("flow") ?? "";
  const input = /<input[^>]*name="csrf_token"[^>]*>/.exec(await page.text())?.[0] ?? "";
  const csrf = /value="([^"]*)"/.exec(input)?.[1] ?? "";
  expect(flow).not.toBe("");
  expect(csrf).not.toBe("");
  return { flow, csrf };
}

/** Milliseconds the portal takes to answer the address form (the form post only). */
async function timedSend(request: APIRequestContext, email: string): Promise<number> {
  const { flow, csrf } = await newFlow(request);
  const started = performance.now();
  const answer = await request.post(`/en/recovery?flow=${flow}`, {
    form: { csrf_token: csrf, email },
    headers: { origin: portalUrl },
    maxRedirects: 0,
  });
  const elapsed = performance.now() - started;
  expect(answer.status()).toBe(200);
  expect(await answer.text()).toContain(sent);
  return elapsed;
}

test("a recovery code request takes as long for an unknown address as for a known one", async ({
  request,
}) => {
  test.setTimeout(scaled(240_000));
  // Distinct addresses: each address may have only 5 codes per 15 minutes.
  const people = Array.from({ length: rounds + warmUps }, (_, i) => uniqueEmail(`timing-${i}`));
  for (const email of people) await createPerson(email);
  const strangers = Array.from({ length: rounds + warmUps }, (_, i) =>
    uniqueEmail(`timing-nobody-${i}`),
  );

  // Warm-up, not measured: first renders, template and statement caches, JIT.
  for (let i = 0; i < warmUps; i++) {
    await timedSend(request, people[rounds + i] ?? "");
    await timedSend(request, strangers[rounds + i] ?? "");
  }

  // Interleaved, each kind first in every other round, so load on the machine falls on both alike.
  const known: number[] = [];
  const unknown: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const knownFirst = i % 2 === 0;
    if (knownFirst) known.push(await timedSend(request, people[i] ?? ""));
    unknown.push(await timedSend(request, strangers[i] ?? ""));
    if (!knownFirst) known.push(await timedSend(request, people[i] ?? ""));
  }

  const medians = { known: median(known), unknown: median(unknown) };
  const tolerance = Math.max(5, 0.25 * Math.min(medians.known, medians.unknown));
  const report = `median known ${medians.known.toFixed(1)} ms, unknown ${medians.unknown.toFixed(1)} ms, tolerance ${tolerance.toFixed(1)} ms`;
  test.info().annotations.push({ type: "recovery timing", description: report });
  console.log(`recovery timing: ${report}`);
  expect(Math.abs(medians.known - medians.unknown), report).toBeLessThanOrEqual(tolerance);
});
