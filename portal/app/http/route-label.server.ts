import { matchRoutes, type RouteObject, type ServerBuild } from "react-router";

/**
 * The route pattern of a page request (`/:lang/login`, `/:lang/*`), for the request metrics:
 * React Router's own matching over the build's route manifest, so a label is one of the app's
 * routes and never a path a browser made up.
 */
export function pageRouteLabeller(routes: ServerBuild["routes"]): (pathname: string) => string {
  const entries = Object.values(routes).filter((route) => route !== undefined);
  const childrenOf = (parentId: string | undefined): RouteObject[] =>
    entries
      .filter((route) => route.parentId === parentId)
      .map((route) =>
        route.index
          ? { id: route.id, index: true, caseSensitive: route.caseSensitive }
          : {
              id: route.id,
              path: route.path,
              caseSensitive: route.caseSensitive,
              children: childrenOf(route.id),
            },
      );
  const tree = childrenOf(undefined);
  return (pathname) => {
    const matches = matchRoutes(tree, pathname);
    if (!matches) return "unmatched";
    const segments = matches.map((match) => match.route.path).filter((path) => path);
    return `/${segments.join("/")}`;
  };
}
