import { index, route } from "@react-router/dev/routes";
import type { RouteConfig } from "@react-router/dev/routes";
import { portalPages } from "./portal-pages.ts";

export default [
  index("routes/root-index.tsx"),
  route("theme", "routes/theme.ts"),
  // The identity service sends browsers to locale-less UI URLs (/login?flow=…); those redirect
  // to the detected locale with the query kept. Everything the user sees lives under /:lang.
  ...portalPages.map((page) =>
    route(page, "routes/unprefixed-redirect.tsx", { id: `unprefixed-${page}` }),
  ),
  route(":lang", "routes/locale-layout.tsx", [
    index("routes/home.tsx"),
    route("login", "routes/login/route.tsx"),
    route("registration", "routes/registration/route.tsx"),
    route("recovery", "routes/recovery/route.tsx"),
    route("verification", "routes/verification/route.tsx"),
    route("settings", "routes/settings/route.tsx"),
    route("error", "routes/error.tsx"),
    route("logout", "routes/logout.tsx"),
    route("consent", "routes/consent/route.tsx"),
    route("*", "routes/not-found.tsx", { id: "locale-not-found" }),
  ]),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
