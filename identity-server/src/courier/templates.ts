import type { Locale } from "../text/locale.ts";
import type { MessageChannel, TemplateType } from "./message.ts";

/** The values a template is rendered with; stored with the message so the mailbox can show them. */
export interface TemplateData {
  code: string;
  expiresInMinutes: number;
  /** E-mail verification only: the link that fills in the code (Kratos' VerificationURL). */
  verificationUrl?: string;
}

export interface RenderedMessage {
  subject: string;
  body: string;
}

type Renderer = (data: TemplateData) => RenderedMessage;
type Catalogue = Record<TemplateType, Record<MessageChannel, Renderer>>;

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
};

const spanish: Catalogue = {
  recovery_code_valid: {
    email: ({ code, expiresInMinutes }) => ({
      subject: "Tu código para recuperar la cuenta",
      body: [
        "Hola:",
        "",
        "usa este código para recuperar el acceso a tu cuenta:",
        "",
        code,
        "",
        `El código caduca en ${expiresInMinutes} minutos. Si no pediste recuperar tu cuenta, ignora este mensaje; no cambia nada.`,
      ].join("\n"),
    }),
    sms: ({ code, expiresInMinutes }) => ({
      subject: "",
      body: `Tu código de recuperación es ${code}. Caduca en ${expiresInMinutes} minutos.`,
    }),
  },
  verification_code_valid: {
    email: ({ code, expiresInMinutes, verificationUrl }) => ({
      subject: "Confirma tu dirección de correo electrónico",
      body: [
        "Hola:",
        "",
        "introduce este código para confirmar tu dirección de correo electrónico:",
        "",
        code,
        "",
        ...(verificationUrl ? ["o abre este enlace:", verificationUrl, ""] : []),
        `El código caduca en ${expiresInMinutes} minutos. Si no creaste una cuenta, ignora este mensaje.`,
      ].join("\n"),
    }),
    sms: ({ code, expiresInMinutes }) => ({
      subject: "",
      body: `Tu código de verificación es ${code}. Caduca en ${expiresInMinutes} minutos.`,
    }),
  },
  login_code_valid: {
    email: ({ code, expiresInMinutes }) => ({
      subject: "Tu código para iniciar sesión",
      body: [
        "Hola:",
        "",
        "introduce este código para terminar de iniciar sesión:",
        "",
        code,
        "",
        `El código caduca en ${expiresInMinutes} minutos. Si no estás iniciando sesión ahora, alguien más conoce tu contraseña: cámbiala.`,
      ].join("\n"),
    }),
    sms: ({ code, expiresInMinutes }) => ({
      subject: "",
      body: `Tu código para iniciar sesión es ${code}. Caduca en ${expiresInMinutes} minutos.`,
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
  return catalogues[locale][type][channel](data);
}
