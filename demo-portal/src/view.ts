import type { FastifyReply, FastifyRequest } from "fastify";

/**
 * How a demo page is shown: its language (English or Spanish, as the portal) and theme. The
 * language is `?lang=` (remembered in the demo's own cookie), else the browser's
 * Accept-Language. The theme is the portal's `theme` cookie, which the browser also sends here
 * when portal and demo share a host (cookies ignore ports), else the system's preference.
 */
export type Lang = "en" | "es";
type Theme = "light" | "dark" | undefined;
export interface View {
  lang: Lang;
  theme: Theme;
  words: Words;
}

const langCookie = "demo_lang";
const portalThemeCookie = "theme";

const words = {
  en: {
    brand: "Agency product",
    tagline: "Demo of a product that signs in through the portal",
    home: "Home",
    welcomeTitle: "Agency product",
    welcomeBody: "Apply for permits, follow your cases and talk to your agency in one place.",
    notSignedIn: "You are not signed in.",
    signedOut: "You have signed out.",
    signIn: "Sign in",
    toPortal: "Go to the sign-in portal",
    welcomeBack: "Welcome back",
    chooseAgency: "Choose an agency",
    agencySelection: "Agency selection",
    selectAgency: "Select your agency",
    signOut: "Sign out",
    yourAccount: "Your account",
    email: "Email",
    name: "Name",
    subject: "Subject",
    signedInAt: "Signed in at",
    acr: "Assurance level (acr)",
    amr: "Methods (amr)",
    language: "Language",
    tryAgain: "Try again",
  },
  es: {
    brand: "Producto de la agencia",
    tagline: "Demostración de un producto que inicia sesión a través del portal",
    home: "Inicio",
    welcomeTitle: "Producto de la agencia",
    welcomeBody:
      "Solicite permisos, siga sus trámites y comuníquese con su agencia en un solo lugar.",
    notSignedIn: "No ha iniciado sesión.",
    signedOut: "Ha cerrado la sesión.",
    signIn: "Iniciar sesión",
    toPortal: "Ir al portal de inicio de sesión",
    welcomeBack: "Bienvenido de nuevo",
    chooseAgency: "Elija una agencia",
    agencySelection: "Selección de agencia",
    selectAgency: "Seleccione su agencia",
    signOut: "Cerrar sesión",
    yourAccount: "Su cuenta",
    email: "Correo electrónico",
    name: "Nombre",
    subject: "Identificador (sub)",
    signedInAt: "Inicio de sesión",
    acr: "Nivel de garantía (acr)",
    amr: "Métodos (amr)",
    language: "Idioma",
    tryAgain: "Intentar de nuevo",
  },
} as const satisfies Record<Lang, Record<string, string>>;
export type Words = (typeof words)[Lang];

export const englishView: View = { lang: "en", theme: undefined, words: words.en };

function asLang(value: unknown): Lang | undefined {
  return value === "en" || value === "es" ? value : undefined;
}

/** The first of the browser's languages the demo speaks (quality order, as sent). */
export function acceptedLang(header: string | undefined): Lang | undefined {
  for (const part of (header ?? "").split(",")) {
    const [tag = ""] = part.trim().toLowerCase().split(";");
    const lang = asLang(tag.split("-")[0]);
    if (lang) return lang;
  }
  return undefined;
}

export function viewOf(request: FastifyRequest, reply: FastifyReply): View {
  const query = request.query as Record<string, unknown> | undefined;
  const chosen = asLang(query?.lang);
  if (chosen) {
    reply.setCookie(langCookie, chosen, { path: "/", httpOnly: true, sameSite: "lax" });
  }
  const lang =
    chosen ??
    asLang(request.cookies[langCookie]) ??
    acceptedLang(request.headers["accept-language"]) ??
    "en";
  const themeCookie = request.cookies[portalThemeCookie];
  const theme: Theme = themeCookie === "dark" || themeCookie === "light" ? themeCookie : undefined;
  return { lang, theme, words: words[lang] };
}
