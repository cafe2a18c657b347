import { expect, test, type Page } from "@playwright/test";
import { mainStack, timedFlowSeconds, timedStack, type Stack } from "./stacks.ts";
import { createPerson, signInWithPassword, strongPassword, uniqueEmail } from "./support.ts";
import { scaled } from "./timing.ts";

const texts = {
  expired: "The form expired. Please try again.",
  csrf: "For your security the form was reset. Please try again.",
  returnToForbidden:
    "The return address is not allowed. You will return to the start page instead.",
  loginExpired: "The sign-in form expired, please try again.",
};

/** The toast region the app shell shows notices in (sonner's "Notifications" landmark). */
function toast(page: Page, text: string) {
  return page.getByRole("region", { name: /Notifications/ }).getByText(text);
}

function flowIdOf(page: Page): string | null {
  return new URL(page.url()).searchParams.get("flow");
}

async function submitPassword(page: Page, email: string): Promise<void> {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(strongPassword);
  await page.getByRole("button", { name: "Sign in with password" }).click();
}

async function expectAgencySelection(page: Page, stack: Stack = mainStack): Promise<void> {
  await expect(page).toHaveURL(`${stack.demoUrl}/agency-selection`);
}

test("an expired sign-in form is replaced, with a notice, by one that works", async ({ page }) => {
  test.setTimeout(timedFlowSeconds * 1000 + scaled(30_000));
  const email = uniqueEmail("expired");
  await createPerson(email, {}, timedStack);
  await page.goto(`${timedStack.portalUrl}/en/login`);
  await expect(page).toHaveURL(/\/en\/login\?flow=/);
  const expiredFlow = flowIdOf(page);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(strongPassword);

  // The behaviour under test is the flow running out of time: the test waits until the identity
  // service itself answers the flow as expired (410), as the portal will see it.
  await expect
    .poll(
      async () =>
        (
          await page.request.get(
            `${timedStack.portalUrl}/api/kratos/self-service/login/flows?id=${expiredFlow ?? ""}`,
          )
        ).status(),
      { timeout: timedFlowSeconds * 1000 + scaled(10_000), intervals: [500] },
    )
    .toBe(410);
  await page.getByRole("button", { name: "Sign in with password" }).click();

  await expect(toast(page, texts.expired)).toBeVisible();
  await expect(page).toHaveURL(/notice=expired/);
  expect(flowIdOf(page)).not.toBe(expiredFlow);
  await expect(page.getByText(texts.loginExpired)).toBeVisible();

  await submitPassword(page, email);
  await expectAgencySelection(page, timedStack);
});

test("a return address the identity service does not allow is refused", async ({ page }) => {
  const email = uniqueEmail("return-to");
  await createPerson(email);
  await page.goto("/en/login?return_to=https%3A%2F%2Fevil.example%2F");

  await expect(toast(page, texts.returnToForbidden)).toBeVisible();
  // The restarted page renders its new flow itself; the address names it after the notice.
  await expect(page).toHaveURL(/\/en\/login\?notice=return-to-forbidden&flow=[\w-]+$/);

  await submitPassword(page, email);
  await expectAgencySelection(page);
});

test("a failed CSRF check resets the form with a notice, and the new form works", async ({
  page,
  context,
}) => {
  const email = uniqueEmail("csrf");
  await createPerson(email);
  await page.goto("/en/login");
  await expect(page).toHaveURL(/\/en\/login\?flow=/);
  const firstFlow = flowIdOf(page);
  const csrfCookies = (await context.cookies()).filter((cookie) =>
    cookie.name.startsWith("csrf_token"),
  );
  expect(csrfCookies).not.toHaveLength(0);
  for (const { name } of csrfCookies) await context.clearCookies({ name });

  await submitPassword(page, email);

  await expect(toast(page, texts.csrf)).toBeVisible();
  await expect(page).toHaveURL(/notice=csrf/);
  expect(flowIdOf(page)).not.toBe(firstFlow);
  await submitPassword(page, email);
  await expectAgencySelection(page);
});

test("opening the sign-in page while signed in goes to the agency product", async ({ page }) => {
  const email = uniqueEmail("signed-in");
  await createPerson(email);
  await signInWithPassword(page, email);
  await expectAgencySelection(page);

  await page.goto(`${mainStack.portalUrl}/en/login`);
  await expectAgencySelection(page);
  await page.goto(`${mainStack.portalUrl}/en/registration`);
  await expectAgencySelection(page);
});

test.describe("the error page", () => {
  test("an error id the identity service does not know leads to the start page", async ({
    page,
  }) => {
    const unknown = "/en/error?id=3b1f8a52-0c4e-4d7a-9a51-7f2c6d0e9b14";
    const answer = await page.request.get(unknown, { maxRedirects: 0 });
    expect(answer.status()).toBe(302);
    expect(answer.headers().location).toBe("/en");

    // Without a session, the start page sends the visitor on to sign in.
    await page.goto(unknown);
    await expect(page).toHaveURL(/\/en\/login\?flow=/);
  });

  test("a stored error says 'Something went wrong' and leads back", async ({ page }) => {
    await page.goto("/en/login");
    await expect(page).toHaveURL(/\/en\/login\?flow=/);
    // An HTML form post with a wrong anti-CSRF token: the identity service stores the error
    // and sends the browser to the error page with its id.
    const posted = await page.request.post(
      `/api/kratos/self-service/login?flow=${flowIdOf(page) ?? ""}`,
      {
        form: {
          csrf_token: "not-the-token",
          method: "password",
          identifier: "someone@example.org",
          password: strongPassword,
        },
        maxRedirects: 0,
      },
    );
    expect(posted.status()).toBe(303);
    const location = posted.headers().location ?? "";
    expect(location).toMatch(/\/error\?id=[0-9a-f-]{36}$/);

    await page.goto(location);
    await expect(page).toHaveURL(/\/en\/error\?id=/);
    await expect(
      page.getByRole("heading", { level: 1, name: "Something went wrong" }),
    ).toBeVisible();
    await page.getByRole("link", { name: "Go back", exact: true }).click();
    await expect(page).toHaveURL(/\/en\/login\?flow=/);
  });

  test("reads in Spanish on the Spanish page", async ({ page }) => {
    await page.goto("/es/login");
    const flow = flowIdOf(page) ?? "";
    const posted = await page.request.post(`/api/kratos/self-service/login?flow=${flow}`, {
      form: { csrf_token: "not-the-token", method: "password", identifier: "x", password: "y" },
      maxRedirects: 0,
    });
    const id = new URL(posted.headers().location ?? "", mainStack.portalUrl).searchParams.get("id");
    await page.goto(`/es/error?id=${id ?? ""}`);
    await expect(page.getByRole("heading", { level: 1, name: "Algo salió mal" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Volver", exact: true })).toHaveAttribute(
      "href",
      "/es",
    );
  });
});

test("switching language uses the catalogue read ahead, not one sent by the server", async ({
  page,
}) => {
  await page.goto("/en/login");
  await expect(page).toHaveURL(/\/en\/login\?flow=/);
  const spanish = page.getByRole("navigation", { name: "Language" }).getByRole("link", {
    name: "Español",
  });

  const catalogueRead = page.waitForResponse(/\/assets\/es-[\w-]+\.json$/);
  await spanish.hover();
  expect((await catalogueRead).status()).toBe(200);

  const dataRequest = page.waitForRequest(/\/es\/login\.data/);
  await spanish.click();
  // Only the routes whose data is asked for are named; the root (with the catalogue) is not.
  const routes = new URL((await dataRequest).url()).searchParams.get("_routes") ?? "";
  expect(routes.split(",")).toContain("routes/login/route");
  expect(routes.split(",")).not.toContain("root");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Iniciar sesión");
  await expect(page.locator("html")).toHaveAttribute("lang", "es");
});
