import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";

/**
 * Kratos' admin listener answers the identity-schema routes with a 307 to the same route on the
 * public URL (schema/handler.go RegisterAdminRoutes → x/redir RedirectToPublicRoute): the `/admin`
 * prefix is dropped, the path joined to the public base URL's path, the query kept.
 */
export function registerAdminSchemaRedirects(app: FastifyInstance, publicBaseUrl: string): void {
  const redirect = async (request: FastifyRequest, reply: FastifyReply) => {
    const target = new URL(request.url, "http://admin.invalid");
    const path = target.pathname.replace(/^\/admin(?=\/)/, "");
    const base = new URL(publicBaseUrl);
    const joined = `${base.pathname.replace(/\/+$/, "")}${path}`;
    return reply.redirect(`${base.origin}${joined}${target.search}`, 307);
  };
  for (const prefix of ["/admin", ""]) {
    app.get(`${prefix}/schemas`, redirect);
    app.get(`${prefix}/schemas/:id`, redirect);
  }
}
