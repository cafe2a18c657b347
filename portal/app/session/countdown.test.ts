import { describe, expect, it } from "vitest";
import en from "../i18n/en.json";
import es from "../i18n/es.json";
import { createTranslator } from "../i18n/translator.ts";
import { clock, nextAnnouncement, secondsLeft, spokenDuration } from "./countdown.ts";

describe("the visible countdown", () => {
  it("shows whole seconds left, rounded up, as mm:ss", () => {
    expect(clock(secondsLeft(300_000))).toBe("05:00");
    expect(clock(secondsLeft(299_001))).toBe("05:00");
    expect(clock(secondsLeft(299_000))).toBe("04:59");
    expect(clock(secondsLeft(61_000))).toBe("01:01");
    expect(clock(secondsLeft(9_500))).toBe("00:10");
    expect(clock(secondsLeft(0))).toBe("00:00");
    expect(clock(secondsLeft(-20))).toBe("00:00");
    expect(clock(3_600)).toBe("60:00");
  });
});

describe("the spoken countdown", () => {
  /** What the live region says over a whole 5-minute prompt, ticking once a second. */
  function announcementsOver(firstSecond: number): number[] {
    const said: number[] = [];
    let announced: number | undefined;
    for (let seconds = firstSecond; seconds >= 0; seconds--) {
      const next = nextAnnouncement(announced, seconds);
      if (next !== undefined) {
        announced = next;
        said.push(next);
      }
    }
    return said;
  }

  it("speaks when the prompt opens, then every 30 seconds including the last minute", () => {
    expect(announcementsOver(299)).toEqual([299, 270, 240, 210, 180, 150, 120, 90, 60, 30]);
  });

  it("rounds to the 30-second mark a late tick skipped past", () => {
    expect(nextAnnouncement(299, 271)).toBeUndefined();
    expect(nextAnnouncement(299, 269)).toBe(270);
    expect(nextAnnouncement(270, 269)).toBeUndefined();
    expect(nextAnnouncement(60, 59)).toBeUndefined();
    expect(nextAnnouncement(60, 30)).toBe(30);
  });

  it("stays quiet through a short prompt after its first words, and at zero", () => {
    expect(announcementsOver(5)).toEqual([5]);
    expect(nextAnnouncement(30, 0)).toBeUndefined();
  });

  it("words the time for screen readers in each language", () => {
    const english = createTranslator("en", en).t;
    const spanish = createTranslator("es", es).t;
    expect(spokenDuration(270, english)).toBe("4 minutes and 30 seconds");
    expect(spokenDuration(61, english)).toBe("1 minute and 1 second");
    expect(spokenDuration(60, english)).toBe("1 minute");
    expect(spokenDuration(30, english)).toBe("30 seconds");
    expect(spokenDuration(1, english)).toBe("1 second");
    expect(spokenDuration(150, spanish)).toBe("2 minutos y 30 segundos");
  });
});
