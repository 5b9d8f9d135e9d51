import { z } from 'zod';
import { uuidParam } from './params.ts';

export const certificateMessages = {
  notFound: 'Certificado não encontrado',
  eventNotFound: 'Evento não encontrado',
  notEnded: 'Os certificados só podem ser emitidos depois do fim da última sessão do evento.',
  notEnabled: 'Os certificados não estão habilitados para este evento.',
  enabled: 'Informe se os certificados estão habilitados',
  hours: 'As horas de cada sessão devem ser um número entre 0 e 24',
  unknownSession: 'Há horas para uma sessão que não é deste evento',
  minimumAttendance: 'A frequência mínima deve ser um número entre 0 e 1 (por exemplo, 0,75)',
  text: 'O texto do certificado deve ter no máximo 1.000 caracteres',
  signerName: 'O nome de quem assina deve ter no máximo 120 caracteres',
  signerRole: 'O cargo de quem assina deve ter no máximo 120 caracteres',
  signatureImage: 'A assinatura deve ser uma imagem PNG de no máximo 200 KB',
  autoReleaseHours: 'A liberação automática deve ser um número inteiro de horas entre 0 e 720',
  holderName: 'O nome deve ter entre 3 e 120 caracteres',
  notValid: 'Só um certificado válido pode ser corrigido.',
  tooManyLookups: 'Muitas consultas de códigos inexistentes. Aguarde alguns minutos e tente novamente.',
} as const;

const HOURS = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 2 });
/** A number of hours as certificates print it: '7,5'. */
export const formatHourCount = (hours: number) => HOURS.format(hours);
/** Hours with their unit, as certificates, pages and e-mails print them: '7,5 horas', '1 hora'. */
export const formatHours = (hours: number) => `${formatHourCount(hours)} ${hours === 1 ? 'hora' : 'horas'}`;

/** How certificates name their state: stored as the enum, shown in pt-BR. */
export const certificateStatuses = ['valid', 'replaced', 'revoked'] as const;
export type CertificateStatus = (typeof certificateStatuses)[number];
export const certificateStatusLabel = {
  valid: 'válido',
  replaced: 'substituído',
  revoked: 'revogado',
} as const satisfies Record<CertificateStatus, string>;
export type CertificateStatusLabel = (typeof certificateStatusLabel)[CertificateStatus];

/** The signature drawn above the signer's name: a PNG data URL, small enough to travel inside the settings. */
export const SIGNATURE_MAX_BYTES = 200 * 1024;
const PNG_DATA_URL = 'data:image/png;base64,';
const signatureImage = z
  .string({ error: certificateMessages.signatureImage })
  .startsWith(PNG_DATA_URL, certificateMessages.signatureImage)
  .max(PNG_DATA_URL.length + Math.ceil((SIGNATURE_MAX_BYTES * 4) / 3) + 4, certificateMessages.signatureImage)
  .refine((value) => {
    try {
      return atob(value.slice(PNG_DATA_URL.length, PNG_DATA_URL.length + 12)).startsWith('\x89PNG\r\n\x1a\n');
    } catch {
      return false;
    }
  }, certificateMessages.signatureImage);

const optionalText = (max: number, message: string) =>
  z.string({ error: message }).trim().max(max, message).nullable().optional();

/** PUT /api/events/:id/certificate (admin). Absent fields take their defaults. */
export const certificateSettingsSchema = z.object({
  enabled: z.boolean({ error: certificateMessages.enabled }),
  hoursBySession: z
    .record(
      z.uuid({ error: certificateMessages.unknownSession }),
      z
        .number({ error: certificateMessages.hours })
        .min(0, certificateMessages.hours)
        .max(24, certificateMessages.hours),
    )
    .optional(),
  minimumAttendance: z
    .number({ error: certificateMessages.minimumAttendance })
    .min(0, certificateMessages.minimumAttendance)
    .max(1, certificateMessages.minimumAttendance)
    .optional(),
  text: optionalText(1000, certificateMessages.text),
  signerName: optionalText(120, certificateMessages.signerName),
  signerRole: optionalText(120, certificateMessages.signerRole),
  signatureImage: signatureImage.nullable().optional(),
  autoReleaseHours: z
    .number({ error: certificateMessages.autoReleaseHours })
    .int(certificateMessages.autoReleaseHours)
    .min(0, certificateMessages.autoReleaseHours)
    .max(720, certificateMessages.autoReleaseHours)
    .nullable()
    .optional(),
});
export type CertificateSettingsInput = z.infer<typeof certificateSettingsSchema>;

/**
 * The default text, printed under the holder's name: `{nome}`, `{evento}`, `{datas}`, `{horas}` and `{local}` are
 * replaced with the holder's name, the event's title, its dates, the hours attended and its place.
 */
export const DEFAULT_CERTIFICATE_TEXT =
  'participou do evento {evento}, realizado em {datas}, em {local}, com carga horária de {horas} horas.';
export const DEFAULT_MINIMUM_ATTENDANCE = 0.75;

export interface CertificateSessionView {
  id: string;
  label: string;
  startsAt: string;
  endsAt: string;
  /** The hours it counts: as set, or its length. */
  hours: number;
}

/** GET /api/events/:id/certificate (admin): the settings with their defaults filled in. */
export interface CertificateSettingsView {
  eventId: string;
  eventTitle: string;
  enabled: boolean;
  sessions: CertificateSessionView[];
  minimumAttendance: number;
  text: string;
  signerName: string | null;
  signerRole: string | null;
  signatureImage: string | null;
  autoReleaseHours: number | null;
  /** When the last session ends: certificates are issued from then on. */
  endsAt: string;
}

/** POST /api/events/:id/certificates (admin): how many holders got a certificate now, and how many did not qualify. */
export interface IssueCertificatesAnswer {
  issued: number;
  skipped: number;
}

export interface AttendedSessionView {
  label: string;
  startsAt: string;
  endsAt: string;
  hours: number;
}

/** GET /api/certificates/:code (public): what the verification page shows; never a CPF or an e-mail. */
export interface PublicCertificateView {
  code: string;
  holderName: string;
  eventTitle: string;
  eventLocation: string;
  hours: number;
  sessions: AttendedSessionView[];
  issuedAt: string;
  status: CertificateStatusLabel;
}

/** GET /api/certificates (the signed-in holder's own) and the admin's list of an event's certificates. */
export interface CertificateView extends PublicCertificateView {
  id: string;
  eventId: string;
  ticketId: string;
}

export interface AdminCertificateView extends CertificateView {
  holderEmail: string;
}

/** PUT /api/events/:id/certificates/:code (admin): the name corrected, the certificate reissued with a new code. */
export const correctCertificateSchema = z.object({
  holderName: z
    .string({ error: certificateMessages.holderName })
    .trim()
    .min(3, certificateMessages.holderName)
    .max(120, certificateMessages.holderName),
});

/** Codes are Crockford base32 in groups of four (`7KQ2-M9XD-4T1H-0BZC`): 80 random bits. */
export const certificateCode = z
  .string({ error: certificateMessages.notFound })
  .trim()
  .toUpperCase()
  .regex(/^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}$/, certificateMessages.notFound);

export const certificateEventParams = z.object({ id: uuidParam(certificateMessages.eventNotFound) });
export const certificateCodeParams = z.object({ code: certificateCode });
export const certificateEventCodeParams = certificateEventParams.extend({ code: certificateCode });

/** `GET /internal/certificates/:id/pdf` (mail): the PDF attached to the certificate's e-mail. */
export const certificatePdfParams = z.object({ id: uuidParam(certificateMessages.notFound) });

/** The public page that checks a certificate, and what its QR code opens. */
export const certificatePagePath = (code: string) => `/certificados/${code}`;
