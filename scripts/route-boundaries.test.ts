import path from "node:path";
import { RuleTester } from "eslint";
import tseslint from "typescript-eslint";
import { describe, it } from "vitest";
import { routeBoundaries } from "./route-boundaries.ts";

RuleTester.describe = describe;
RuleTester.it = it;

const app = path.resolve("/repo/portal/app");
const at = (file: string) => path.join(app, file);

// The portal is TypeScript: type-only imports count too.
const tester = new RuleTester({ languageOptions: { parser: tseslint.parser } });

tester.run("route-boundaries", routeBoundaries(path.join(app, "routes")), {
  valid: [
    // A page's own folder, its subfolders, the shared folders and the files beside the pages.
    { code: 'import { a } from "./cards/a.ts";', filename: at("routes/settings/route.tsx") },
    { code: 'import { a } from "../devices/a.ts";', filename: at("routes/settings/cards/a.tsx") },
    { code: 'import { a } from "../../validation/email.ts";', filename: at("routes/login/a.ts") },
    { code: 'import { a } from "../nodna.ts";', filename: at("routes/login/a.ts") },
    { code: 'import { a } from "react-router";', filename: at("routes/login/a.ts") },
    { code: 'import type { Route } from "./+types/logout";', filename: at("routes/logout.tsx") },
    // Tests outside the pages drive them.
    { code: 'import { a } from "../routes/login/a.ts";', filename: at("http/a.test.ts") },
  ],
  invalid: [
    {
      code: 'import { a } from "../registration/validation.ts";',
      filename: at("routes/recovery/route.tsx"),
      errors: [{ messageId: "otherPage", data: { own: "recovery", other: "registration" } }],
    },
    {
      code: 'import type { A } from "../../registration/a.ts";',
      filename: at("routes/settings/cards/a.tsx"),
      errors: [{ messageId: "otherPage" }],
    },
    {
      code: 'export { a } from "../login/a.ts";',
      filename: at("routes/settings/a.ts"),
      errors: [{ messageId: "otherPage" }],
    },
    {
      code: 'const a = import("../login/a.ts");',
      filename: at("routes/settings/a.test.ts"),
      errors: [{ messageId: "otherPage" }],
    },
    {
      code: 'import { a } from "../routes/registration/validation.ts";',
      filename: at("flows/password-rules.tsx"),
      errors: [{ messageId: "sharedImportsPage", data: { other: "registration" } }],
    },
    {
      code: 'import { a } from "./login/a.ts";',
      filename: at("routes/logout-sign-out.server.ts"),
      errors: [
        { messageId: "otherPage", data: { own: "logout-sign-out.server.ts", other: "login" } },
      ],
    },
  ],
});
