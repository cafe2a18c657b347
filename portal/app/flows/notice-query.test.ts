import { describe, expect, it } from "vitest";
import { noticeDuration, noticeFromQuery } from "./notice-query.ts";

describe("restart notices", () => {
  it("word every reason the dispatcher restarts a flow for", () => {
    expect(noticeFromQuery("csrf")).toBe("notice.csrf");
    expect(noticeFromQuery("expired")).toBe("notice.expired");
    expect(noticeFromQuery("not-found")).toBe("notice.expired");
    expect(noticeFromQuery("return-to-forbidden")).toBe("notice.returnToForbidden");
    expect(noticeFromQuery("identity-mismatch")).toBe("notice.somethingWentWrong");
    expect(noticeFromQuery("failed")).toBe("notice.somethingWentWrong");
    expect(noticeFromQuery("refresh")).toBe("notice.refreshRequired");
    expect(noticeFromQuery("anything else")).toBeUndefined();
    expect(noticeFromQuery(null)).toBeUndefined();
  });

  it("stay 3 s for a reset form, 5 s for signing in again and 2 s otherwise (spec §9)", () => {
    expect(noticeDuration("notice.csrf")).toBe(3000);
    expect(noticeDuration("notice.expired")).toBe(3000);
    expect(noticeDuration("notice.returnToForbidden")).toBe(3000);
    expect(noticeDuration("notice.refreshRequired")).toBe(5000);
    expect(noticeDuration("notice.somethingWentWrong")).toBe(2000);
  });
});
