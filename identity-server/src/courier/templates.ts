import type { Locale } from "../text/locale.ts";
import type { MessageChannel, TemplateType } from "./message.ts";

/** The values a code template is rendered with; stored with the message so the mailbox can show them. */
interface CodeTemplateData {
  code: string;
  expiresInMinutes: number;
  /** E-mail verification only: the link that fills in the code (Kratos' VerificationURL). */
  verificationUrl?: string;
}

/** Templates that carry no code (recovery_code_invalid) are rendered from nothing. */
type NoData = Record<string, never>;
export type TemplateData = CodeTemplateData | NoData;
type DataOf<T extends TemplateType> = T extends "recovery_code_invalid" ? NoData : CodeTemplateData;

export interface RenderedMessage {
  subject: string;
  body: string;
}

type Catalogue = {
  [T in TemplateType]: Record<MessageChannel, (data: DataOf<T>) => RenderedMessage>;
};

// Our own wording; text messages have no subject, as in Kratos.
const english: Catalogue = {
  recovery_code_valid: {
    email: ({ code, expiresInMinutes }) => ({
      subject: "Your account recovery code",
      body: [
        "Hello,",
        "",
        "use this code to recover access to your account:",
        "",
        code,
        "",
        `The code expires in ${expiresInMinutes} minutes. If you did not ask to recover your account, ignore this message; nothing changes.`,
      ].join("\n"),
    }),
    sms: ({ code, expiresInMinutes }) => ({
      subject: "",
      body: `Your recovery code is ${code}. It expires in ${expiresInMinutes} minutes.`,
    }),
  },
  verification_code_valid: {
    email: ({ code, expiresInMinutes, verificationUrl }) => ({
      subject: "Confirm your email address",
      body: [
        "Hello,",
        "",
        "enter this code to confirm your email address:",
        "",
        code,
        "",
        ...(verificationUrl ? ["or open this link:", verificationUrl, ""] : []),
        `The code expires in ${expiresInMinutes} minutes. If you did not create an account, ignore this message.`,
      ].join("\n"),
    }),
    sms: ({ code, expiresInMinutes }) => ({
      subject: "",
      body: `Your verification code is ${code}. It expires in ${expiresInMinutes} minutes.`,
    }),
  },
  login_code_valid: {
    email: ({ code, expiresInMinutes }) => ({
      subject: "Your sign-in code",
      body: [
        "Hello,",
        "",
        "enter this code to finish signing in:",
        "",
        code,
        "",
        `The code expires in ${expiresInMinutes} minutes. If you are not signing in right now, someone else knows your password: change it.`,
      ].join("\n"),
    }),
    sms: ({ code, expiresInMinutes }) => ({
      subject: "",
      body: `Your sign-in code is ${code}. It expires in ${expiresInMinutes} minutes.`,
    }),
  },
  recovery_code_invalid: {
    email: () => ({
      subject: "Someone tried to recover an account with this address",
      body: [
        "Hello,",
        "",
        "someone, perhaps you, asked to recover an account with this email address, but no account uses it, so nothing was sent and nothing changed.",
        "",
        "If it was you, you may have signed up with another address. If not, ignore this message.",
      ].join("\n"),
    }),
    sms: () => ({
      subject: "",
      body: "Someone asked to recover an account with this number, but no account uses it. If it was not you, ignore this message.",
    }),
  },
};

// Usted throughout, as the portal's Spanish texts (portal/app/i18n/glossary.json).
const spanish: Catalogue = {
  recovery_code_valid: {
    email: ({ code, expiresInMinutes }) => ({
      subject: "Su código para recuperar la cuenta",
      body: [
        "Hola:",
        "",
        "use este código para recuperar el acceso a su cuenta:",
        "",
        code,
        "",
        `El código caduca en ${expiresInMinutes} minutos. Si no pidió recuperar su cuenta, ignore este mensaje; no cambia nada.`,
      ].join("\n"),
    }),
    sms: ({ code, expiresInMinutes }) => ({
      subject: "",
      body: `Su código de recuperación es ${code}. Caduca en ${expiresInMinutes} minutos.`,
    }),
  },
  verification_code_valid: {
    email: ({ code, expiresInMinutes, verificationUrl }) => ({
      subject: "Confirme su dirección de correo electrónico",
      body: [
        "Hola:",
        "",
        "introduzca este código para confirmar su dirección de correo electrónico:",
        "",
        code,
        "",
        ...(verificationUrl ? ["o abra este enlace:", verificationUrl, ""] : []),
        `El código caduca en ${expiresInMinutes} minutos. Si no creó una cuenta, ignore este mensaje.`,
      ].join("\n"),
    }),
    sms: ({ code, expiresInMinutes }) => ({
      subject: "",
      body: `Su código de verificación es ${code}. Caduca en ${expiresInMinutes} minutos.`,
    }),
  },
  login_code_valid: {
    email: ({ code, expiresInMinutes }) => ({
      subject: "Su código para iniciar sesión",
      body: [
        "Hola:",
        "",
        "introduzca este código para terminar de iniciar sesión:",
        "",
        code,
        "",
        `El código caduca en ${expiresInMinutes} minutos. Si no está iniciando sesión ahora, alguien más conoce su contraseña: cámbiela.`,
      ].join("\n"),
    }),
    sms: ({ code, expiresInMinutes }) => ({
      subject: "",
      body: `Su código para iniciar sesión es ${code}. Caduca en ${expiresInMinutes} minutos.`,
    }),
  },
  recovery_code_invalid: {
    email: () => ({
      subject: "Alguien intentó recuperar una cuenta con esta dirección",
      body: [
        "Hola:",
        "",
        "alguien, quizá usted, pidió recuperar una cuenta con esta dirección de correo electrónico, pero ninguna cuenta la usa, así que no se envió nada y no cambió nada.",
        "",
        "Si fue usted, quizá se registró con otra dirección. Si no, ignore este mensaje.",
      ].join("\n"),
    }),
    sms: () => ({
      subject: "",
      body: "Alguien pidió recuperar una cuenta con este número, pero ninguna cuenta lo usa. Si no fue usted, ignore este mensaje.",
    }),
  },
};

const catalogues: Record<Locale, Catalogue> = { en: english, es: spanish };

export function renderTemplate(
  type: TemplateType,
  channel: MessageChannel,
  locale: Locale,
  data: TemplateData,
): RenderedMessage {
  // The caller pairs each template with its data (a code template with a code).
  const render = catalogues[locale][type][channel] as (data: TemplateData) => RenderedMessage;
  return render(data);
}
