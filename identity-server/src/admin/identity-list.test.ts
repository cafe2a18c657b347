import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "../test-support/http-client.ts";
import { registerNative } from "../test-support/flow-helpers.ts";
import { startTestServer, type TestServer } from "../test-support/test-server.ts";

let ts: TestServer;
const ids: string[] = [];
beforeAll(async () => {
  ts = await startTestServer();
  for (const name of ["ada", "adam", "bob", "carol", "dave"]) {
    ids.push((await registerNative(ts, `${name}@list.example.com`)).identityId);
  }
  ids.sort();
});
afterAll(async () => {
  await ts.stop();
});

interface Listed {
  id: string;
  traits: { email: string };
  credentials?: Record<string, { config?: unknown }>;
}

async function list(query: string) {
  const response = await call(`${ts.adminUrl}/admin/identities${query}`);
  return { ...response, items: response.body as Listed[] };
}

function links(header: string | null): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (header ?? "").split(",")) {
    const match = /<([^>]+)>; rel="(\w+)"/.exec(part);
    if (match?.[1] && match[2]) out[match[2]] = match[1];
  }
  return out;
}

describe("GET /admin/identities filters", () => {
  it("finds an identity by its exact identifier, case-insensitively, with its credentials", async () => {
    const found = await list("?credentials_identifier=ADA@list.example.com");
    expect(found.status).toBe(200);
    expect(found.items.map((i) => i.traits.email)).toEqual(["ada@list.example.com"]);
    // A credentials search expands the credentials (without config unless asked for).
    expect(found.items[0]?.credentials?.password).toBeDefined();
    expect(found.items[0]?.credentials?.password?.config).toBeUndefined();
    expect((await list("?credentials_identifier=nobody@list.example.com")).items).toEqual([]);
  });

  it("finds identities whose identifier starts with the similar search", async () => {
    const found = await list("?preview_credentials_identifier_similar=ada");
    expect(found.items.map((i) => i.traits.email).sort()).toEqual([
      "ada@list.example.com",
      "adam@list.example.com",
    ]);
    // LIKE wildcards in the search are taken literally.
    expect((await list("?preview_credentials_identifier_similar=%25")).items).toEqual([]);
    expect((await list("?preview_credentials_identifier_similar=_da")).items).toEqual([]);
  });

  it("lists the given ids only and includes credential config on request", async () => {
    const wanted = [ids[0] ?? "", ids[2] ?? ""];
    const found = await list(`?ids=${wanted[0]}&ids=${wanted[1]}&include_credential=password`);
    expect(found.items.map((i) => i.id)).toEqual(wanted);
    expect(found.items[0]?.credentials?.password?.config).toMatchObject({
      hashed_password: expect.stringMatching(/^\$argon2id\$/) as unknown,
    });
    // Without either, credentials are not loaded at all (Kratos' default expansion).
    const plain = await list("");
    expect(plain.items[0]?.credentials).toBeUndefined();
    // An organisation filter matches nothing: this server has no organisations.
    expect((await list(`?organization_id=${ids[0]}`)).items).toEqual([]);
  });

  it("answers 400 like Kratos for bad filters", async () => {
    const cases: [string, string][] = [
      ["?ids=not-a-uuid", "Invalid UUID value `not-a-uuid` for parameter `ids`."],
      [
        `?ids=${ids[0]}&credentials_identifier=ada@list.example.com`,
        "You cannot combine multiple filters in this API",
      ],
      ["?include_credential=magic", "Invalid value `magic` for parameter `include_credential`."],
      ["?organization_id=x", "Invalid UUID value `x` for parameter `organization_id`."],
      ["?page_token=abc", "The page token is invalid, do not craft your own page tokens"],
      ["?page_size=ten", 'strconv.Atoi: parsing "ten": invalid syntax'],
      [
        "?page=5&per_page=250",
        "Legacy pagination is not supported for enumerating over 1000 items. Please switch to using page_token and page_size.",
      ],
    ];
    for (const [query, reason] of cases) {
      const response = await list(query);
      expect(response.status, query).toBe(400);
      expect(response.body).toEqual({
        error: {
          code: 400,
          status: "Bad Request",
          reason,
          message: "The request was malformed or contained invalid parameters",
        },
      });
    }
  });
});

describe("GET /admin/identities paging", () => {
  it("pages by id with page_size and page_token, following the Link header", async () => {
    const first = await list("?page_size=2");
    expect(first.items.map((i) => i.id)).toEqual(ids.slice(0, 2));
    const firstLinks = links(first.headers.get("link"));
    expect(firstLinks.first).toBe(
      "/admin/identities?page_size=2&page_token=00000000-0000-0000-0000-000000000000",
    );
    expect(firstLinks.next).toBe(`/admin/identities?page_size=2&page_token=${ids[1]}`);
    const seen = [...first.items.map((i) => i.id)];
    let next = firstLinks.next;
    while (next) {
      const page = await call(`${ts.adminUrl}${next}`);
      seen.push(...(page.body as Listed[]).map((i) => i.id));
      next = links(page.headers.get("link")).next;
    }
    expect(seen).toEqual(ids);
    // per_page alone is taken as page_size.
    expect((await list("?per_page=3")).items).toHaveLength(3);
  });

  it("pages by legacy page/per_page with X-Total-Count", async () => {
    const second = await list("?page=1&per_page=2");
    expect(second.items.map((i) => i.id)).toEqual(ids.slice(2, 4));
    expect(second.headers.get("x-total-count")).toBe("5");
    expect(links(second.headers.get("link"))).toEqual({
      first: "/admin/identities?page=0&per_page=2",
      next: "/admin/identities?page=2&per_page=2",
      prev: "/admin/identities?page=0&per_page=2",
      last: "/admin/identities?page=2&per_page=2",
    });
    const all = await list("?page=0");
    expect(all.items).toHaveLength(5);
    expect(links(all.headers.get("link"))).toEqual({
      first: "/admin/identities?page=0&per_page=5",
    });
  });
});
