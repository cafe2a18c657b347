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
    // the self-service base (selfservice/: the Flow type, CSRF check, error forwarding) and http,
    // session, store and identity; none of those lower layers ever reaches up into a flow.
    files: ["identity-server/src/{http,session,store,identity,methods}/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "(^|/)flows/",
              message:
                "http, session, store, identity and the methods never import flows: move what both need down a layer.",
            },
          ],
        },
      ],
    },
  },
  {
    // The self-service base sits below the methods and the flows.
    files: ["identity-server/src/selfservice/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "(^|/)(flows|methods)/",
              message:
                "selfservice is the base the methods and flows build on: it imports neither.",
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
