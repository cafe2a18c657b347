import { describe, expect, it } from "vitest";
import { loadBlocklist } from "./common-passwords.ts";
import { passwordPolicyViolation } from "./policy.ts";

const policy = { minLength: 12, productWords: ["agency", "portal", "sso"] };
const idOf = (password: string, identifier = "a@example.com") =>
  passwordPolicyViolation(password, identifier, policy)?.id;

describe("password policy: Kratos' rules", () => {
  it("counts the minimum length in bytes (4000032) and in code points", () => {
    expect(passwordPolicyViolation("short", "a@example.com", policy)).toMatchObject({
      id: 4000032,
      text: "The password must be at least 12 characters long, but got 5.",
      context: { min_length: 12, actual_length: 5 },
    });
    // 13 code points (15 bytes): long enough either way.
    expect(idOf("ñandú-café-42")).toBeUndefined();
    expect(idOf("ñandú-42")).toBe(4000032);
    // 12 bytes, as Kratos counts them, but 6 characters: too short (it passed on bytes alone).
    expect(passwordPolicyViolation("éèêëàâ", "a@example.com", policy)).toMatchObject({
      id: 4000032,
      context: { min_length: 12, actual_length: 6 },
    });
    // Characters that show nothing do not count.
    expect(idOf("abc\u200bdef\u200b9\u200b!\u00ad\u200d\u2060")).toBe(4000032);
  });

  it("rejects passwords close to the identifier (4000031)", () => {
    expect(idOf("Jane.Doe@Example.com1", "jane.doe@example.com")).toBe(4000031);
    expect(idOf("Xjane.doe@example!", "jane.doe@example.com")).toBe(4000031);
    expect(idOf("unrelated-Horse-77", "jane.doe@example.com")).toBeUndefined();
  });

  it("rejects passwords on the breached list (4000034), case-insensitively", () => {
    expect(passwordPolicyViolation("qwerty123456", "a@example.com", policy)).toMatchObject({
      id: 4000034,
      text: "The password has been found in data breaches and must no longer be used.",
      context: { breaches: 1 },
    });
    expect(idOf("QWERTY123456")).toBe(4000034);
  });
});

describe("password policy: NIST SP 800-63B's rules", () => {
  it("rejects repetitive characters (4000034)", () => {
    for (const password of ["aaaaaaaaaaaa", " ".repeat(12), "Aa1!Aa1!Aa1!", "xyzxyzxyzxyzX"]) {
      expect(idOf(password), password).toBe(4000034);
    }
  });

  it("rejects sequential characters, keyboard rows and years (4000034)", () => {
    for (const password of ["abcdefghijkl", "9876543210zyx", "qwertyuiop12", "abc123xyz789"]) {
      expect(idOf(password), password).toBe(4000034);
    }
  });

  it("rejects the e-mail's parts with little else (4000031), look-alikes included", () => {
    const email = "jane.doe@example.com";
    expect(idOf("jane.doe12345678", email)).toBe(4000031);
    expect(idOf("J4n3D0e-2024!", email)).toBe(4000031);
    expect(idOf("Example!2024ab", email)).toBe(4000031);
    // The same words with enough of something else are fine.
    expect(idOf("Jane-Correct-Horse-9", email)).toBeUndefined();
  });

  it("rejects the product's name with little else (4000034)", () => {
    expect(idOf("Portal-2024!!x")).toBe(4000034);
    expect(idOf("AgencySSO!1234")).toBe(4000034);
    expect(idOf("Portal-Correct-Horse-9")).toBeUndefined();
  });

  it("rejects a dictionary word or breached password dressed up with a few characters (4000034)", () => {
    for (const password of ["Password2024!", "P@ssw0rd2024!", "!!Washington12", "Dragonfly1234"]) {
      expect(idOf(password), password).toBe(4000034);
    }
    // A word with enough unpredictable characters around it passes.
    expect(idOf("Washington!Xk29q")).toBeUndefined();
  });

  it("accepts passphrases and random passwords", () => {
    for (const password of [
      "Correct-Horse-Battery-9",
      "correct-Horse-battery-2-staple",
      "unrelated-Horse-77",
      "Table!92817364",
      "k8#Vq2!zR7mW",
    ]) {
      expect(idOf(password, "jane.doe@example.com"), password).toBeUndefined();
    }
  });

  it("uses a blocklist larger than the breached-password list alone", () => {
    // @zxcvbn-ts/language-common has 49,233 breached passwords; the English words come on top.
    expect(loadBlocklist()).toBeGreaterThan(150_000);
    expect(idOf("internationalization")).toBe(4000034);
  });
});

// What the independent attack on issue 12 registered with, all accepted before.
describe("password policy: normalised, reversed, keyboard walks, deployment words", () => {
  const deployment = {
    minLength: 12,
    productWords: ["agency", "portal", "product", "sso", "signin", "login", "localhost"],
  };
  const refused = (password: string, identifier = "victim@example.com") =>
    passwordPolicyViolation(password, identifier, deployment)?.id;

  it("normalises (NFKC) and drops zero-width characters before the checks", () => {
    expect(refused("pass\u200bword1234")).toBe(4000034);
    expect(refused("ｐａｓｓｗｏｒｄ１２３４")).toBe(4000034);
    expect(refused("Ｃｏｒｒｅｃｔ－Ｈｏｒｓｅ－Ｂａｔｔｅｒｙ－９")).toBeUndefined();
  });

  it("checks the password reversed: the e-mail and breached passwords backwards", () => {
    expect(refused("moc.elpmaxe@mitciv")).toBe(4000031);
    expect(refused("4321drowssap")).toBe(4000034);
    expect(refused("latrop-ni-ngis")).toBe(4000034);
  });

  it("refuses keyboard walks, along rows and zigzagging across them", () => {
    for (const password of [
      "1q2w3e4r5t6y7u8i",
      "qazwsxedcrfvtgb",
      "zaq1xsw2cde3vfr4",
      "1qaz2wsx3edc",
      "!QAZ@WSX#EDC",
      "poiuytrewq0987",
    ]) {
      expect(refused(password), password).toBe(4000034);
    }
  });

  it("refuses the product's and the deployment's names, with separators or without", () => {
    for (const password of [
      "sign-in-portal",
      "agencyproduct1",
      "localhost1234",
      "Agency.Product!",
    ]) {
      expect(refused(password), password).toBe(4000034);
    }
  });

  it("still accepts ordinary strong passphrases and random passwords", () => {
    for (const password of [
      "Correct-Horse-Battery-9",
      "Another-Strong-Secret-7",
      "correct-Horse-battery-2-staple",
      "Table!92817364",
      "k8#Vq2!zR7mW",
      "Please-answer-were-base-55",
    ]) {
      expect(refused(password), password).toBeUndefined();
    }
  });
});

// What the second attack round on issue 12 registered with, all accepted before.
describe("password policy: invisible blanks, marks, look-alikes, keypad, doubles, Dvorak", () => {
  const deployment = { minLength: 12, productWords: ["agency", "portal", "product", "sso"] };
  const refused = (password: string) =>
    passwordPolicyViolation(password, "victim@example.com", deployment)?.id;

  it("drops blank characters (Braille blank, Hangul fillers, format characters) for the checks", () => {
    for (const password of [
      "pass\u2800word\u28001234",
      "pass\u3164word\u31641234",
      "pass\u115fword\u11601234",
      "pass\uffa0word\u20631234",
    ]) {
      expect(refused(password), JSON.stringify(password)).toBe(4000034);
    }
  });

  it("reads accented and underlined letters without their marks", () => {
    expect(refused("p\u0332a\u0332s\u0332s\u0332w\u0332o\u0332r\u0332d\u0332")).toBe(4000034);
    expect(refused("pássẃórd1234")).toBe(4000034);
  });

  it("reads Cyrillic and Greek look-alikes as Latin letters", () => {
    expect(refused("\u0440\u0430ssword1234")).toBe(4000034);
    expect(refused("\u03c1\u03b1ssw\u03bfrd1234")).toBe(4000034);
  });

  it("refuses numeric keypad walks, doubled characters and Dvorak rows", () => {
    for (const password of [
      "147258369147258",
      "789456123789456",
      "aabbccddeeff",
      "ppaasssswwoorrdd",
      "aoeuidhtns-_",
      "',.pyfgcrl/=",
    ]) {
      expect(refused(password), password).toBe(4000034);
    }
  });

  it("still accepts passphrases in other scripts and with doubled letters", () => {
    for (const password of [
      "Mississippi-Yellow-Book-42",
      "Ελληνικά-συνθηματικά-7",
      "пароль-для-входа-в-систему",
      "Crème-brûlée-Façade-9",
      "Table!92817364",
    ]) {
      expect(refused(password), password).toBeUndefined();
    }
  });
});
