import type { FastifyRequest } from "fastify";

interface AcceptSpec {
  value: string;
  q: number;
}

function parseAccept(header: string | undefined): AcceptSpec[] {
  if (!header) return [];
  return header.split(",").flatMap((part) => {
    const [rawValue, ...params] = part.split(";");
    const value = (rawValue ?? "").trim().toLowerCase();
    if (value === "") return [];
    let q = 1;
    for (const param of params) {
      const [key, raw] = param.split("=").map((item) => item.trim());
      if (key === "q" && raw !== undefined) {
        const parsed = Number(raw);
        q = Number.isFinite(parsed) ? parsed : 0;
      }
    }
    return [{ value, q }];
  });
}

/**
 * The same selection as golang/gddo's NegotiateContentType, which Kratos uses: the best-quality offer
 * wins, exact matches beat `type/*`, which beats `*\/*`; without an Accept header the default wins.
 */
export function negotiateContentType(
  acceptHeader: string | undefined,
  offers: readonly string[],
  defaultOffer: string,
): string {
  let bestOffer = defaultOffer;
  let bestQ = -1;
  let bestWild = 3;
  const specs = parseAccept(acceptHeader);
  for (const offer of offers) {
    for (const spec of specs) {
      if (spec.q === 0 || spec.q < bestQ) continue;
      if (spec.value === "*/*") {
        if (spec.q > bestQ || bestWild > 2) {
          bestQ = spec.q;
          bestWild = 2;
          bestOffer = offer;
        }
      } else if (spec.value.endsWith("/*")) {
        if (offer.startsWith(spec.value.slice(0, -1)) && (spec.q > bestQ || bestWild > 1)) {
          bestQ = spec.q;
          bestWild = 1;
          bestOffer = offer;
        }
      } else if (spec.value === offer && (spec.q > bestQ || bestWild > 0)) {
        bestQ = spec.q;
        bestWild = 0;
        bestOffer = offer;
      }
    }
  }
  return bestOffer;
}

const jsonRequestOffers = ["text/html", "text/*", "*/*", "application/json"];

/** Kratos' x.IsJSONRequest: Accept prefers JSON, or the body is exactly `application/json`. */
export function isJsonRequest(request: FastifyRequest): boolean {
  return (
    negotiateContentType(request.headers.accept, jsonRequestOffers, "text/html") ===
      "application/json" || request.headers["content-type"] === "application/json"
  );
}

/** Kratos' x.AcceptsJSON / redirect-or-JSON negotiation, which only looks at Accept. */
export function acceptsJson(request: FastifyRequest): boolean {
  return (
    negotiateContentType(request.headers.accept, ["text/html", "application/json"], "text/html") ===
    "application/json"
  );
}

/** Kratos' x.IsBrowserRequest: Accept negotiation (default text/html) prefers HTML. */
export function isBrowserRequest(request: FastifyRequest): boolean {
  return (
    negotiateContentType(request.headers.accept, jsonRequestOffers, "text/html") === "text/html"
  );
}
