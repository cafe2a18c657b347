import js from "@eslint/js";
import tseslint from "typescript-eslint";
import globals from "globals";
import reactHooks from "eslint-plugin-react-hooks";
import jsxA11y from "eslint-plugin-jsx-a11y";
import { routeBoundaries } from "./scripts/route-boundaries.ts";

export default tseslint.config(
  {
    ignores: [
      "**/build/",
      "**/dist/",
      "**/.react-router/",
      "**/node_modules/",
      "**/data/",
      "playwright-report/",
      "test-results/",
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node, ...globals.browser },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      "@typescript-eslint/only-throw-error": ["error", { allow: ["Response"] }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_" }],
    },
  },
  {
    files: ["portal/**/*.tsx"],
    plugins: { "react-hooks": reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  { files: ["portal/**/*.tsx"], ...jsxA11y.flatConfigs.recommended },
  { files: ["**/*.js", "**/*.mjs"], extends: [tseslint.configs.disableTypeChecked] },
  {
    // The identity server's layers point one way (issue 16): flows use the methods, and both use
    // http, session and store; the lower layers never reach up into a flow. Five modules of flows/
    // are still imported from below (the Flow type and flowJson, isUuid, sendError, ensureCsrf,
    // ReauthenticationRequired): they belong a layer down and are let through until they move
    // there; any other flows/ module is refused.
    files: ["identity-server/src/{http,session,store,methods}/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "(^|/)flows/(?!(flow|flow-id|errors|csrf-check|reauthentication)\\.ts$)",
              message:
                "http, session, store and the methods never import flows: move what both need down a layer.",
            },
          ],
        },
      ],
    },
  },
  {
    // One portal page never imports another page's folder, and the shared modules never import
    // a page's (issue 16; scripts/route-boundaries.ts).
    files: ["portal/app/**/*.{ts,tsx}"],
    plugins: {
      portal: {
        rules: {
          "route-boundaries": routeBoundaries(`${import.meta.dirname}/portal/app/routes`),
        },
      },
    },
    rules: { "portal/route-boundaries": "error" },
  },
);
