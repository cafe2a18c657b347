import { readFileSync } from "node:fs";

// Which OpenAPI operations a run of the contract suite reached, and with which statuses: every
// request the client makes is matched to the vendored Kratos spec's path templates.

const specUrl = new URL("../../../vendor/ory/kratos-openapi.json", import.meta.url);

interface Operation {
  method: string;
  template: string;
  operationId: string;
}

const spec = JSON.parse(readFileSync(specUrl, "utf8")) as {
  paths: Record<string, Record<string, { operationId?: string }>>;
};

const operations: Operation[] = Object.entries(spec.paths).flatMap(([template, methods]) =>
  Object.entries(methods).map(([method, op]) => ({
    method: method.toUpperCase(),
    template,
    operationId: op.operationId ?? `${method} ${template}`,
  })),
);

function matches(template: string, path: string): boolean {
  const a = template.split("/");
  const b = path.split("/");
  return a.length === b.length && a.every((s, i) => /^\{.+\}$/.test(s) || s === b[i]);
}

/** The spec operation a request is for (literal templates win over ones with parameters). */
function operationOf(method: string, url: string): Operation | undefined {
  const path = new URL(url).pathname;
  const candidates = operations.filter((o) => o.method === method && matches(o.template, path));
  return candidates.find((o) => !o.template.includes("{")) ?? candidates[0];
}

export class OperationRecorder {
  readonly seen = new Map<string, Set<number>>();

  /** A fetch that records the operation and status of each request it passes on. */
  wrap(inner: typeof fetch): typeof fetch {
    return async (input, init) => {
      const request = new Request(input, init);
      const response = await inner(input, init);
      const operation = operationOf(request.method, request.url);
      if (operation) {
        const statuses = this.seen.get(operation.operationId) ?? new Set<number>();
        statuses.add(response.status);
        this.seen.set(operation.operationId, statuses);
      }
      return response;
    };
  }
}
