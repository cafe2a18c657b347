import { defineConfig } from "vitest/config";

// The portal's tests run as two projects. Most of them share one jsdom environment and module
// graph per worker (isolate: false): creating a jsdom and importing React for each of its ~80
// files was about two thirds of its time (issue 13). The tests that start processes or servers,
// or change module state for the rest of a file (the portal's server, the OAuth2 service, the
// logout and login actions), keep a fresh environment per file. A new test that leaks state into
// others belongs in the isolated list, as does one that needs a module not yet loaded (the phone
// picker's lazy chunk, whose loading it observes). The server side's plain unit tests (route
// loaders and actions called with fetch stubbed and unstubbed after each test, parsers, cookie and
// header helpers) share the graph too: isolated, 23 of them took 17 s against 4 s (12.9 against
// 3.2 s of CPU), nearly all of it worker, jsdom and import set-up per file.
const portalIsolated = [
  "app/http/body-limit.server.test.ts",
  "app/http/client-error-log.server.test.ts",
  "app/http/csp-origins.test.ts",
  "app/http/direct-flow-render.server.test.ts",
  "app/http/first-paint-order.server.test.ts",
  "app/http/graceful-shutdown-load.server.test.ts",
  "app/http/health.server.test.ts",
  "app/http/listener-limits.server.test.ts",
  "app/http/metrics.server.test.ts",
  "app/http/page-weight.server.test.ts",
  "app/http/portal-only-submissions.server.test.ts",
  "app/http/rate-limited.server.test.ts",
  "app/http/security-headers.test.ts",
  "app/http/starting-page.server.test.ts",
  "app/http/tracing-off.server.test.ts",
  "app/http/tracing.server.test.ts",
  "app/http/trusted-proxies.server.test.ts",
  "app/flows/forwarded-form.server.test.ts",
  "app/routes/consent/consent.server.test.ts",
  "app/routes/settings/settings-html.server.test.ts",
  "**/*.oauth2-service.test.ts",
  "app/routes/logout.test.ts",
  "app/ui/phone/phone-widget.test.tsx",
  "app/flows/webauthn/lazy-loading.test.tsx",
  // It expects to be the first to hold a language's whole catalogue (module state), which another
  // file in a shared worker may have loaded before it (failed so in a full run with two workers).
  "app/i18n/page-catalogue.test.tsx",
  "app/flows/webauthn/registration-loading.test.tsx",
  "app/routes/login/login-enhancements.test.ts",
  "app/routes/login/create-account-loading.test.tsx",
  "app/ui/sign-out-loading.test.tsx",
  // Imports the module afresh per test (it remembers the document's first interaction).
  "app/ui/first-interaction.test.ts",
];

// The identity server's tests likewise: they start their servers in-process from config objects,
// so one module graph per worker serves them all, where importing its ~400 modules again for each
// of ~110 files was over a third of the project's time (issue 13: 154 s of CPU against 56 s for
// the same files). Files that replace a module for the rest of the file (vi.mock) or observe
// process-wide state keep a fresh module graph.
const identityServerIsolated = [
  "src/flows/registration/added-method.test.ts",
  "src/flows/verification/added-method.test.ts",
  "src/hardening/security-enumeration.test.ts",
  "src/methods/passkey/passkey-races.test.ts",
  "src/oauth2/client-authentication.test.ts",
  "src/rate-limit/password-limits.test.ts",
  "src/tracing/**/*.test.ts",
];

// `npm run test:unit` (and so `npm test`) runs two workers (--maxWorkers=2) where Vitest's default on
// a 2-core machine is one (cores minus one): many files mostly wait (servers starting and
// draining, timers), not compute. The isolated portal files, two runs each, alternately on the
// busy machine: 98 and 100 s with one, 68 and 72 s with two, the same 32 s of CPU. On the command
// line because a root `maxWorkers` here does not reach the projects (Vitest 5: one worker still).
export default defineConfig({
  test: {
    projects: [
      {
        extends: "./portal/vitest.config.ts",
        root: "./portal",
        test: { name: "portal", include: portalIsolated },
      },
      {
        extends: "./portal/vitest.config.ts",
        root: "./portal",
        test: {
          name: "portal-shared",
          include: ["**/*.test.{ts,tsx}"],
          exclude: ["node_modules/**", "build/**", ...portalIsolated],
          isolate: false,
        },
      },
      {
        extends: "./identity-server/vitest.config.ts",
        root: "./identity-server",
        test: { name: "identity-server", include: identityServerIsolated },
      },
      {
        extends: "./identity-server/vitest.config.ts",
        root: "./identity-server",
        test: {
          name: "identity-server-shared",
          exclude: identityServerIsolated,
          isolate: false,
        },
      },
      "client",
      "demo-portal",
      "e2e",
      "scripts",
      "bench",
    ],
  },
});
