import path from "node:path";
import type { Rule } from "eslint";

/**
 * The portal's pages point one way (issue 16): a page folder under app/routes/ never imports
 * another page's folder, nor does a file directly under app/routes/ (a page of its own, or a
 * helper the pages share), nor a shared module elsewhere in app/ (only tests may, as they drive
 * the pages). What two pages need lives in a shared folder (app/validation/, app/flows/, …).
 * React Router's generated `./+types/…` modules belong to the page that imports them.
 */
export function routeBoundaries(routesDir: string): Rule.RuleModule {
  /** The page folder a file lives in; null for a file directly under routes/; else undefined. */
  const pageOf = (file: string): string | null | undefined => {
    const relative = path.relative(routesDir, file);
    if (relative === "" || relative.startsWith("..") || path.isAbsolute(relative)) return undefined;
    const [first, ...rest] = relative.split(path.sep);
    return rest.length > 0 && first !== undefined ? first : null;
  };
  return {
    meta: {
      type: "problem",
      docs: { description: "A portal page never imports another page's folder." },
      messages: {
        otherPage:
          "routes/{{own}} imports the {{other}} page's folder: move what both need to a shared folder (app/validation/, app/session/, …).",
        sharedImportsPage:
          "A shared module imports the {{other}} page's folder: the pages use the shared modules, not the other way round.",
      },
      schema: [],
    },
    create(context) {
      const file = context.filename;
      const own = pageOf(file);
      if (own === undefined && /\.test\.tsx?$/.test(file)) return {};
      const check = (node: Rule.Node, source: unknown) => {
        if (typeof source !== "string" || !source.startsWith(".")) return;
        if (source.startsWith("./+types/")) return;
        const other = pageOf(path.resolve(path.dirname(file), source));
        if (typeof other !== "string" || other === own) return;
        if (own === undefined) {
          context.report({ node, messageId: "sharedImportsPage", data: { other } });
        } else {
          const name = own ?? path.basename(file);
          context.report({ node, messageId: "otherPage", data: { own: name, other } });
        }
      };
      return {
        ImportDeclaration: (node) => check(node, node.source.value),
        ExportNamedDeclaration: (node) => check(node, node.source?.value),
        ExportAllDeclaration: (node) => check(node, node.source.value),
        ImportExpression: (node) =>
          check(node, node.source.type === "Literal" ? node.source.value : undefined),
      };
    },
  };
}
